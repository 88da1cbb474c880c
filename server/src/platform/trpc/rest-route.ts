/**
 * A procedure's REST exposure, declared next to it in its router:
 *
 *     get: authedProcedure
 *       .meta({ rest: { method: 'GET', path: '/registrations/:id' } })
 *       .input(alertIdInput)
 *       .output(syncParse(alertSchema))   // checked synchronously (sync-parse.ts)
 *       .query(…)
 *
 * http/rest-routes.ts derives the REST table from these, http/rest.ts adapts each row to a call of
 * the procedure through a tRPC caller, and http/openapi.ts documents it from the same meta and the
 * procedure's input and output schemas. A procedure without `rest` is tRPC-only by choice.
 */
export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path below /api, e.g. '/templates/:id'. Path parameters are taken from the path only. */
  path: string;
  /** Status for a non-empty answer (default 200); an undefined answer is always 204. */
  status?: number;
  /** Chooses the status from the answer (e.g. health: 503 while not ready); list each in `statuses`. */
  statusFrom?: (data: unknown) => number;
  /** Other success statuses `statusFrom` may choose (documented with the same schema). */
  statuses?: readonly number[];
  /**
   * Error statuses beyond the ones derived from the procedure (400 with an input, 401/403/429 when
   * signed in, 404 with a path id, 413/415 with a body): e.g. 409 for a collision, 502 upstream.
   */
  errors?: readonly number[];
  /** One line for the reference page; the procedure's name when absent. */
  summary?: string;
}

/** One row of the derived REST table: (method, path) → procedure. */
export interface RestRoute extends RestMeta {
  /** Dotted procedure path, e.g. 'templates.update'. */
  procedure: string;
}
