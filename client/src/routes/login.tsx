import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { LoginScreen } from '@/features/auth/auth-screens.tsx';
import { safeRedirectTarget } from '@/features/auth/redirect-target.ts';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ redirect: z.string().optional().catch(undefined) }),
  beforeLoad: ({ context, search }) => {
    // Already signed in: go where the visitor was heading.
    if (context.session.get()) throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
  },
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect: target } = Route.useSearch();
  return <LoginScreen redirectTo={safeRedirectTarget(target)} />;
}
