import { createFileRoute } from '@tanstack/react-router';
import { ConfiguratorLayout } from '@/components/layout/configurator-layout.tsx';

export const Route = createFileRoute('/_app/_configurator')({
  component: ConfiguratorLayout,
});
