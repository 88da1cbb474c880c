import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { AuthLayout } from '@/features/auth/auth-layout.tsx';
import { LoginForm } from '@/features/auth/login-form.tsx';
import { safeRedirectTarget } from '@/features/auth/redirect-target.ts';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ redirect: z.string().optional().catch(undefined) }),
  beforeLoad: ({ context, search }) => {
    // Already signed in: go where the visitor was heading.
    if (context.session.get()) throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
  },
  component: LoginPage,
});

function LoginPage() {
  const { redirect: target } = Route.useSearch();
  return (
    <AuthLayout title="Sign in" subtitle="Watch resort and party availability and get told when it opens.">
      <LoginForm redirectTo={safeRedirectTarget(target)} />
    </AuthLayout>
  );
}
