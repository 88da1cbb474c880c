import { Container } from '@mantine/core';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { ErrorState, LoadingState } from './states.tsx';

/** Shown while a route's code or data loads for longer than the router's pending delay. */
export function RoutePending() {
  return <LoadingState label="Loading…" />;
}

/**
 * Shown when a route fails to load (for example its code chunk after a new deployment). Trying
 * again reloads the route's code and data.
 */
export function RouteError({ reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <Container size="sm" py="xl">
      <ErrorState
        message="This page could not be loaded. Check your connection and try again."
        onRetry={() => {
          reset();
          void router.invalidate();
        }}
      />
    </Container>
  );
}
