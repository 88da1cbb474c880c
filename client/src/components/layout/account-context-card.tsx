import { Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { authMessages } from '@resort/shared';
import type { UserSummary } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** 'Your Account Context' (docs/product.md, "Screens and routes"): whose account the configuration screens act on. */
export function AccountContextCard({
  summary,
  loading,
  error,
}: {
  summary: UserSummary | undefined;
  loading: boolean;
  error: unknown;
}) {
  return (
    <Card withBorder mb="lg" aria-label="Your Account Context" component="section">
      <Text fw={600}>Your Account Context</Text>
      <Text size="sm" c="dimmed" mb="sm">
        Configuration on these screens applies to the signed-in account.
      </Text>
      {loading ? (
        <Skeleton height={40} />
      ) : error || !summary ? (
        <Text size="sm" c="red">
          {errorMessage(error, authMessages.loadAccountFailed)}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
          <Fact label="E-mail" value={summary.user.email} />
          <Fact label="Name" value={summary.user.name || 'Unnamed account'} />
          <Fact label="Account ID" value={summary.user.id} />
          <Fact label="Notification services" value={String(summary.notificationServices.length)} />
          <Fact label="Alerts" value={String(summary.registrations.length)} />
        </SimpleGrid>
      )}
    </Card>
  );
}

export function hidesAccountContext(pathname: string): boolean {
  return pathname.startsWith('/configure/alerts') || pathname.startsWith('/alerts');
}
