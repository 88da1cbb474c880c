import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { RouteComponent } from '@tanstack/react-router';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createApi } from '@/api/api.ts';
import { ApiProvider } from '@/api/api-context.tsx';
import { type AppRouter, createOptionsProxy, createQueryClient } from '@/api/trpc.ts';
import { theme } from '@/app/theme.ts';

/**
 * Component-test support: the real API layer (tRPC client, query options, error text) answered by
 * a terminating tRPC link from a table of procedure handlers, instead of a network. A handler
 * throws `ApiAnswer` to answer an error the way the server's error formatter does.
 */
export class ApiAnswer extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export type Handlers = Record<string, (input: unknown) => unknown>;
export interface Call {
  path: string;
  input: unknown;
}

export function answerLink(handlers: Handlers, calls: Call[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        Promise.resolve()
          .then(() => {
            const handler = handlers[op.path];
            if (!handler) throw new ApiAnswer(404, `No procedure found on path "${op.path}"`);
            return handler(op.input);
          })
          .then((data) => {
            observer.next({ result: { type: 'data', data } });
            observer.complete();
          })
          .catch((error: unknown) => {
            const answer = error instanceof ApiAnswer ? error : new ApiAnswer(500, String(error));
            observer.error(
              TRPCClientError.from({
                error: { code: -32600, message: answer.message, data: { httpStatus: answer.status } },
              }),
            );
          });
      });
}

/** Renders screens on a memory router at `path`, each route a component, with the API above. */
export function renderWithApi(opts: {
  handlers: Handlers;
  path: string;
  routes: Record<string, RouteComponent>;
}) {
  const calls: Call[] = [];
  const client = createTRPCClient<AppRouter>({ links: [answerLink(opts.handlers, calls)] });
  const queryClient = createQueryClient();
  const api = createApi(createOptionsProxy(client, queryClient), client, queryClient);
  const rootRoute = createRootRoute({ component: Outlet });
  const children = Object.entries(opts.routes).map(([path, component]) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path,
      component,
      validateSearch: (search: Record<string, unknown>) => search,
    }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren(children),
    history: createMemoryHistory({ initialEntries: [opts.path] }),
  });
  const result = render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>
        <ApiProvider api={api}>
          <RouterProvider router={router} />
        </ApiProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, calls, queryClient };
}
