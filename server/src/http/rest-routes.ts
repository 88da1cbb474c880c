import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { RestRoute } from '../platform/trpc/rest-route.ts';
import { outputSchemaOf } from '../platform/trpc/sync-parse.ts';
import type { ProcedureMeta } from '../platform/trpc/trpc.ts';
import { appRouter } from './router.ts';

export interface DerivedRestRoute extends RestRoute {
  /**
   * The procedure's name in the API document (operationId, tag, generated schema names): its path,
   * with the router key renamed where the contract keeps an older name (see `contractRouterNames`).
   */
  operation: string;
  access: NonNullable<ProcedureMeta['access']>;
  procedureType: 'query' | 'mutation';
  /** The procedure's input and output parsers (zod schemas from shared/), when declared. */
  input: unknown;
  output: unknown;
}

/**
 * The REST table, derived from the procedures' `meta.rest` (docs/product.md, "The REST contract").
 * Adding a procedure with REST meta adds its route and its documentation; none is listed by hand.
 */
export function deriveRestRoutes(
  router: AnyRouter,
  contractNames: Readonly<Record<string, string>> = {},
): DerivedRestRoute[] {
  const procedures = router._def.procedures as unknown as Record<string, AnyProcedure>;
  const rows: DerivedRestRoute[] = [];
  const seen = new Map<string, string>();
  for (const [procedure, proc] of Object.entries(procedures)) {
    const meta = proc._def.meta as ProcedureMeta | undefined;
    if (!meta?.rest) continue;
    const key = `${meta.rest.method} ${meta.rest.path.replace(/:[A-Za-z]+/g, ':')}`;
    const clash = seen.get(key);
    if (clash) throw new Error(`REST route ${key} is declared by both ${clash} and ${procedure}`);
    seen.set(key, procedure);
    const def = proc._def as { inputs?: unknown[]; output?: unknown; type: string };
    const [routerKey = '', ...rest] = procedure.split('.');
    rows.push({
      ...meta.rest,
      procedure,
      operation: [contractNames[routerKey] ?? routerKey, ...rest].join('.'),
      access: meta.access ?? 'user',
      procedureType: def.type === 'query' ? 'query' : 'mutation',
      input: def.inputs?.[0],
      output: outputSchemaOf(def.output),
    });
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * Router keys whose procedures the API document names differently: the contract calls an alert a
 * registration, and integrators' generated clients are built on its operation ids, tags and schema
 * names, while the routers say alert like the rest of the code.
 */
const contractRouterNames: Readonly<Record<string, string>> = {
  alerts: 'registrations',
  adminAlerts: 'adminRegistrations',
};

export const restRoutes: readonly DerivedRestRoute[] = deriveRestRoutes(appRouter, contractRouterNames);
