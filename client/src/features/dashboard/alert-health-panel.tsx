import { Card, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';
import type { AlertRecord } from '@/api/contracts.ts';
import { TextLink } from '@/components/links.tsx';
import { AlertHealthNote } from '@/features/alerts/alert-activity.tsx';
import { alertWithParty } from '@/features/alerts/alert-text.ts';

/** The alerts that cannot be trusted to see rooms: failing first, then drifted. */
export function seriousAlerts(alerts: readonly AlertRecord[]): AlertRecord[] {
  const rank = (a: AlertRecord) => (a.activity?.health === 'failing' ? 0 : 1);
  return alerts
    .filter((a) => a.activity?.health === 'failing' || a.activity?.health === 'drifted')
    .sort((a, b) => rank(a) - rank(b));
}

/**
 * The dashboard's first word when something is wrong (docs/product.md, "Alert health"): each alert
 * that cannot see availability or whose answer drifted, the cause in words and its last successful
 * check. Live events refresh the alert list it reads; nothing shows while every alert sees.
 */
export function AlertHealthPanel() {
  const api = useApi();
  const alerts = useQuery(api.alerts.mine());
  const serious = seriousAlerts(alerts.data ?? []);
  if (serious.length === 0) return null;
  const now = Date.now();
  return (
    <Card withBorder id="alert-health" aria-labelledby="alert-health-title">
      <Text fw={600} id="alert-health-title" mb="xs" component="h2" size="md">
        {serious.length === 1
          ? '1 alert cannot see availability'
          : `${serious.length} alerts cannot see availability`}
      </Text>
      <Stack gap="sm" data-testid="alert-health-panel">
        {serious.map((alert) => (
          <div key={alert.id} data-testid="alert-health-row">
            <TextLink to="/alerts/$alertId" params={{ alertId: alert.id }} fw={500} size="sm">
              {alertWithParty(alert)}
            </TextLink>
            <AlertHealthNote alert={alert} now={now} />
          </div>
        ))}
      </Stack>
    </Card>
  );
}
