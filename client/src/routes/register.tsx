import { createFileRoute, redirect } from '@tanstack/react-router';
import { useState } from 'react';
import { RegisterScreen } from '@/features/auth/auth-screens.tsx';
import { fragmentToken } from '@/features/auth/fragment-token.ts';

export const Route = createFileRoute('/register')({
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: RegisterRoute,
});

function RegisterRoute() {
  // Read once: the fragment stays as it is, so a reload keeps the invitation.
  const [invitation] = useState(() => fragmentToken(window.location.hash, 'invitation'));
  return <RegisterScreen invitation={invitation} />;
}
