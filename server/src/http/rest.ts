import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from './context.ts';
import type { AppRouter } from './router.ts';
import { createCallerFactory } from './trpc.ts';

/**
 * One row of the REST surface: (method, path) → tRPC procedure. The adapter calls the procedure
 * through a tRPC caller, so validation, authorisation and behaviour are written once.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path below /api, e.g. '/templates/:id'. */
  path: string;
  /** Dotted procedure path, e.g. 'templates.update'. */
  procedure: string;
  /** Status for a non-empty answer (default 200); an undefined answer is always 204. */
  status?: number;
  /** Picks the procedure input; the default merges query, JSON body and path params (params win). */
  input?: (req: FastifyRequest) => unknown;
  /** Chooses the status from the answer (e.g. health: 503 while not ready). */
  statusFrom?: (data: unknown) => number;
}

function defaultInput(req: FastifyRequest): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = req.body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    // A non-object body is handed over as is; the procedure's schema answers what is wrong with it.
    return Object.keys(params).length ? { ...params, body } : body;
  }
  if (body === undefined && !Object.keys(query).length && !Object.keys(params).length) return undefined;
  return { ...query, ...(body as Record<string, unknown> | undefined), ...params };
}

type ProcedureFn = (input: unknown) => Promise<unknown>;

function resolveProcedure(caller: unknown, path: string): ProcedureFn {
  let target: unknown = caller;
  for (const key of path.split('.')) target = (target as Record<string, unknown>)[key];
  if (typeof target !== 'function') throw new Error(`REST route names unknown procedure ${path}`);
  return target as ProcedureFn;
}

export function registerRestRoutes(
  app: FastifyInstance,
  appRouter: AppRouter,
  routes: readonly RestRoute[],
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>,
): void {
  const createCaller = createCallerFactory(appRouter);
  for (const route of routes) {
    app.route({
      method: route.method,
      url: `/api${route.path}`,
      handler: async (req, reply) => {
        const ctx = await createContext(req, reply);
        const call = resolveProcedure(createCaller(ctx), route.procedure);
        const data = await call((route.input ?? defaultInput)(req));
        if (data === undefined) return reply.code(204).send();
        const status = route.statusFrom?.(data) ?? route.status ?? 200;
        return reply.code(status).send({ data });
      },
    });
  }
}
