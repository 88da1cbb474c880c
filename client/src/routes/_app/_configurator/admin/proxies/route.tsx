import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { ProxyManagement } from '@/features/proxies/proxy-management.tsx';

/** Web Proxy Management (SPEC.md §2): import, register, inventory; sections live in ./-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/proxies')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.proxies.list());
  },
  component: () => (
    <>
      <PageHeader
        title="Web Proxy Management"
        subtitle="The proxies the polling worker rotates through, their health and their last attempts."
      />
      <ProxyManagement />
    </>
  ),
});
