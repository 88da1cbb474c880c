import { AppShell, Burger, Button, Group, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { isAdminRole } from '@resort/shared';
import { Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ButtonLink } from '@/components/links.tsx';
import { useSession, useSessionContext } from '@/session/use-session.ts';
import { SideNav } from './side-nav.tsx';

/** The signed-in app shell: top bar and side navigation around the page. */
export function AppLayout() {
  const session = useSession();
  const { manager } = useSessionContext();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure(false);
  const [signingOut, setSigningOut] = useState(false);
  const href = useLocation({ select: (l) => l.href });
  const user = session?.user;

  async function signOut() {
    setSigningOut(true);
    await manager.signOut();
    await navigate({ to: '/login' });
  }

  // Without a session the pages below must not render: their queries, rebuilt after the cache is
  // cleared, would go out without a token (a 401 for each). Signing out navigates by itself; a
  // session that ended otherwise (expiry, refused token) goes to sign-in and comes back after.
  if (!session) {
    return signingOut ? null : <Navigate to="/login" search={{ redirect: href }} replace />;
  }

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', xs: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            {/* The wordmark stays on one line: on a phone the bar's buttons leave it about 120 px. */}
            <Title order={4} fz={{ base: 'md', xs: 'lg' }} style={{ whiteSpace: 'nowrap' }}>
              Resort Alerts
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" truncate maw={220} data-testid="current-user">
              {user?.name || user?.email}
            </Text>
            <ButtonLink to="/dashboard" hash="recent-notifications" variant="subtle" size="xs" px={8}>
              Notifications
            </ButtonLink>
            <Button variant="light" size="xs" px={8} onClick={signOut} loading={signingOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <SideNav isAdmin={isAdminRole(user?.roles ?? [])} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
