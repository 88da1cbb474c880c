import { Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header.tsx';
import { useSession } from '@/session/use-session.ts';
import { AlertHealthPanel } from './alert-health-panel.tsx';
import { RecentNotifications } from './recent-notifications.tsx';
import { SummaryPanels } from './summary-panels.tsx';
import { WelcomePanel } from './welcome-panel.tsx';

/**
 * The dashboard: every figure comes from the server, computed from the user's own alerts and
 * watchlists; alerts that cannot see availability come first.
 */
export function DashboardScreen() {
  const session = useSession();
  return (
    <Stack gap="lg">
      <PageHeader title="Dashboard" />
      <AlertHealthPanel />
      <WelcomePanel name={session?.user.name || session?.user.email || 'traveller'} />
      <SummaryPanels />
      <RecentNotifications />
    </Stack>
  );
}
