import { createFileRoute, redirect } from '@tanstack/react-router';
import { AuthLayout } from '@/features/auth/auth-layout.tsx';
import { RegisterForm } from '@/features/auth/register-form.tsx';

export const Route = createFileRoute('/register')({
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: () => (
    <AuthLayout title="Create your account" subtitle="Set up alerts for the resorts and parties you watch.">
      <RegisterForm />
    </AuthLayout>
  ),
});
