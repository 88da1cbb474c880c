import { Container } from '@mantine/core';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { errorMessage } from '@/api/http.ts';
import { ErrorState, LoadingState } from './states.tsx';

/** Shown while a route's code or data loads for longer than the router's pending delay. */
export function RoutePending() {
  return <LoadingState label="Loading…" />;
}

export const routeErrorFallback = 'This page could not be loaded. Check your connection and try again.';

/**
 * Shown when a route fails to load (for example its code chunk after a new deployment): the
 * server's message when it sent one, else the fallback. Trying again reloads the route's code and
 * data.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <Container size="sm" py="xl">
      <ErrorState
        message={errorMessage(error, routeErrorFallback)}
        onRetry={() => {
          reset();
          void router.invalidate();
        }}
      />
    </Container>
  );
}
