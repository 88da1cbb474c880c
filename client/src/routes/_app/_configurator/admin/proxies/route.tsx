import { createFileRoute } from '@tanstack/react-router';
import { ProxyManagementScreen } from '@/features/proxies/proxy-management.tsx';

export const Route = createFileRoute('/_app/_configurator/admin/proxies')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.proxies.list());
  },
  component: ProxyManagementScreen,
});
