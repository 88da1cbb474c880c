import { createFileRoute } from '@tanstack/react-router';
import { UsersScreen } from '@/features/users/users-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/admin/users')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.users.list(''));
  },
  component: UsersScreen,
});
