import { createFileRoute, redirect } from '@tanstack/react-router';
import { RegisterScreen } from '@/features/auth/auth-screens.tsx';

export const Route = createFileRoute('/register')({
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: RegisterScreen,
});
