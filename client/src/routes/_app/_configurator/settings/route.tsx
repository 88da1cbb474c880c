import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '@/features/settings/settings-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/settings')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.account.profile());
  },
  component: SettingsScreen,
});
