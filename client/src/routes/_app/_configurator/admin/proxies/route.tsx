import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../../components/page-header.tsx';

/** Web Proxy Management (SPEC.md §2): import, register, inventory; sections live in ./-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/proxies')({
  component: () => (
    <PageHeader
      title="Web Proxy Management"
      subtitle="The proxies the polling worker rotates through, their health and their last attempts."
    />
  ),
});
