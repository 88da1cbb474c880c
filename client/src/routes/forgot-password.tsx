import { createFileRoute, redirect } from '@tanstack/react-router';
import { ForgotPasswordScreen } from '@/features/auth/auth-screens.tsx';

export const Route = createFileRoute('/forgot-password')({
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: ForgotPasswordScreen,
});
