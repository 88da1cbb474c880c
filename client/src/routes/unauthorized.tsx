import { createFileRoute } from '@tanstack/react-router';
import { UnauthorizedScreen } from '@/features/auth/auth-screens.tsx';

export const Route = createFileRoute('/unauthorized')({
  component: UnauthorizedScreen,
});
