import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../platform/trpc/context.ts';
import type { RestRoute } from '../platform/trpc/rest-route.ts';
import { createCallerFactory } from '../platform/trpc/trpc.ts';
import type { AppRouter } from './router.ts';

export type { RestRoute };

/**
 * The procedure input: query (GET) or JSON body, with the path parameters over it, so a path id
 * never needs repeating in the body.
 */
function restInput(req: FastifyRequest): unknown {
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

/** One Fastify route per row of the derived table, each calling its procedure through a caller. */
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
        const data = await call(restInput(req));
        if (data === undefined) return reply.code(204).send();
        const status = route.statusFrom?.(data) ?? route.status ?? 200;
        return reply.code(status).send({ data });
      },
    });
  }
}
