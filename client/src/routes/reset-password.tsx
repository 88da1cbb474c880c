import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { ResetPasswordScreen } from '@/features/auth/auth-screens.tsx';
import { fragmentToken } from '@/features/auth/fragment-token.ts';

/** Open to a signed-in visitor too: an admin may hand the link to someone at a shared desk. */
export const Route = createFileRoute('/reset-password')({
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const [token] = useState(() => fragmentToken(window.location.hash, 'token'));
  return <ResetPasswordScreen token={token} />;
}
