import { randomUUID } from 'node:crypto';
import type { AnyProcedure } from '@trpc/server';
import type { RestRoute } from '../../src/http/rest.ts';
import { restRoutes } from '../../src/http/rest-routes.ts';
import { appRouter } from '../../src/http/router.ts';
import type { ProcedureMeta } from '../../src/platform/trpc/trpc.ts';

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

/** The access level a procedure declares through its place on the procedure ladder. */
export function procedureAccess(path: string): ProcedureMeta['access'] | undefined {
  return (procedures[path]?._def.meta as ProcedureMeta | undefined)?.access;
}

export function allProcedurePaths(): string[] {
  return Object.keys(procedures);
}

export function procedureType(path: string): 'query' | 'mutation' | 'subscription' | undefined {
  return procedures[path]?._def.type;
}

/** Every REST row with its procedure's access level. */
export function restRoutesWithAccess(): (RestRoute & { access: ProcedureMeta['access'] | undefined })[] {
  return restRoutes.map((r) => ({ ...r, access: procedureAccess(r.procedure) }));
}

/** A concrete URL for a row, with path parameters filled by fresh ids. */
export function concreteUrl(route: RestRoute): string {
  return `/api${route.path.replace(/:[A-Za-z]+/g, () => randomUUID())}`;
}
