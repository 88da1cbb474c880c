import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { RestRoute } from '../platform/trpc/rest-route.ts';
import type { ProcedureMeta } from '../platform/trpc/trpc.ts';
import { appRouter } from './router.ts';

export interface DerivedRestRoute extends RestRoute {
  access: NonNullable<ProcedureMeta['access']>;
  procedureType: 'query' | 'mutation';
  /** The procedure's input and output parsers (zod schemas from shared/), when declared. */
  input: unknown;
  output: unknown;
}

/**
 * The REST table, derived from the procedures' `meta.rest` (SPEC.md §7 plus what accounts need).
 * Adding a procedure with REST meta adds its route and its documentation; none is listed by hand.
 */
export function deriveRestRoutes(router: AnyRouter): DerivedRestRoute[] {
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
    rows.push({
      ...meta.rest,
      procedure,
      access: meta.access ?? 'user',
      procedureType: def.type === 'query' ? 'query' : 'mutation',
      input: def.inputs?.[0],
      output: def.output,
    });
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

export const restRoutes: readonly DerivedRestRoute[] = deriveRestRoutes(appRouter);
