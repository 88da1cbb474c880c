import { Divider, ScrollArea, Stack, Text } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { NavRouterLink } from '@/components/links.tsx';

function SectionTitle({ children }: { children: string }) {
  return (
    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
      {children}
    </Text>
  );
}

/**
 * The side navigation (docs/product.md, "Screens and routes"): Home, Dashboard, Alerts, Watchlists, Archived, Settings
 * and Create Alert; the Administration section for admins only.
 */
export function SideNav({ isAdmin, onNavigate }: { isAdmin: boolean; onNavigate?: () => void }) {
  const pathname = useLocation({ select: (l) => l.pathname });
  const view = useLocation({ select: (l) => (l.search as { view?: string }).view });
  const onHome = pathname === '/';
  const is = (path: string) => pathname === path || pathname.startsWith(`${path}/`);

  return (
    <ScrollArea type="auto" h="100%">
      <Stack gap={2} p="xs" component="nav" aria-label="Main">
        <SectionTitle>Navigation</SectionTitle>
        {/* Home is '/' without ?view: the router would otherwise mark it current on Watchlists and Archived too. */}
        <NavRouterLink
          to="/"
          search={{ view: undefined }}
          activeOptions={{ includeSearch: true, explicitUndefined: true }}
          label="Home"
          active={onHome && !view}
          onClick={onNavigate}
        />
        <NavRouterLink to="/dashboard" label="Dashboard" active={is('/dashboard')} onClick={onNavigate} />
        <NavRouterLink to="/alerts" label="Alerts" active={is('/alerts')} onClick={onNavigate} />
        <NavRouterLink
          to="/"
          search={{ view: 'watchlists' }}
          label="Watchlists"
          active={onHome && view === 'watchlists'}
          onClick={onNavigate}
        />
        <NavRouterLink
          to="/"
          search={{ view: 'archived' }}
          label="Archived"
          active={onHome && view === 'archived'}
          onClick={onNavigate}
        />
        <NavRouterLink to="/settings" label="Settings" active={is('/settings')} onClick={onNavigate} />
        <NavRouterLink
          to="/configure/alerts"
          label="Create Alert"
          active={is('/configure/alerts')}
          onClick={onNavigate}
        />

        {isAdmin ? (
          <>
            <Divider mt="sm" />
            <SectionTitle>Administration</SectionTitle>
            <NavRouterLink
              to="/admin/alerts"
              label="Alerts (Admin)"
              active={is('/admin/alerts')}
              onClick={onNavigate}
            />
            <NavRouterLink
              to="/admin/templates"
              label="Templates"
              active={is('/admin/templates')}
              onClick={onNavigate}
            />
            <NavRouterLink
              to="/admin/proxies"
              label="Web Proxies"
              active={is('/admin/proxies')}
              onClick={onNavigate}
            />
            <NavRouterLink to="/admin/users" label="Users" active={is('/admin/users')} onClick={onNavigate} />
          </>
        ) : null}
      </Stack>
    </ScrollArea>
  );
}
