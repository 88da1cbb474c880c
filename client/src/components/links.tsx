import {
  Anchor,
  type AnchorProps,
  Button,
  type ButtonProps,
  NavLink,
  type NavLinkProps,
} from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type AnchorAttributes = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;

/** Mantine components rendered as router links (TanStack Router's createLink pattern). */
export const ButtonLink = createLink(
  (props: ButtonProps & AnchorAttributes & { ref?: Ref<HTMLAnchorElement> }) => (
    <Button component="a" {...props} />
  ),
);

export const NavRouterLink = createLink(
  (props: NavLinkProps & AnchorAttributes & { ref?: Ref<HTMLAnchorElement> }) => (
    <NavLink component="a" {...props} />
  ),
);

export const TextLink = createLink(
  (props: AnchorProps & AnchorAttributes & { ref?: Ref<HTMLAnchorElement> }) => <Anchor {...props} />,
);
