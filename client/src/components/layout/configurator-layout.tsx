import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useLocation } from '@tanstack/react-router';
import { useApi } from '@/api/api-context.tsx';
import { AccountContextCard, hidesAccountContext } from './account-context-card.tsx';

/** The configurator pages (alerts, settings, configure, admin) with the account card where it belongs. */
export function ConfiguratorLayout() {
  const api = useApi();
  const pathname = useLocation({ select: (l) => l.pathname });
  const showCard = !hidesAccountContext(pathname);
  const summary = useQuery({ ...api.account.summary(), enabled: showCard });

  return (
    <Box maw={1280} mx="auto">
      {showCard ? (
        <AccountContextCard summary={summary.data} loading={summary.isPending} error={summary.error} />
      ) : null}
      <Outlet />
    </Box>
  );
}
