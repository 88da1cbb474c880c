import { z } from 'zod';

/**
 * An output parser tRPC runs as a plain function: every answer is checked against the zod schema
 * synchronously, so zod's compiled fast path serves it. Given the schema itself, tRPC would call
 * `parseAsync`, which that path does not serve (about 100 µs more for a list of ten alerts;
 * docs/performance.md, "API"). A schema that needs async checks falls back to `parseAsync`.
 *
 * `_input` and `_output` exist for the type checker only, as zod 3's schemas had them: tRPC reads
 * the procedure's input and output types from them, exactly as from the schema.
 */
export interface SyncParser<S extends z.ZodType> {
  (value: unknown): z.output<S> | Promise<z.output<S>>;
  /** The schema, for the REST table and the OpenAPI document (http/rest-routes.ts). */
  readonly schema: S;
  readonly _input: z.input<S>;
  readonly _output: z.output<S>;
}

export function syncParse<S extends z.ZodType>(schema: S): SyncParser<S> {
  const parse = (value: unknown) => {
    try {
      return schema.parse(value);
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return schema.parseAsync(value);
      throw error;
    }
  };
  return Object.assign(parse, { schema }) as unknown as SyncParser<S>;
}

/** The zod schema behind a procedure's output parser: itself, or the one `syncParse` wraps. */
export function outputSchemaOf(parser: unknown): unknown {
  return typeof parser === 'function' && 'schema' in parser ? parser.schema : parser;
}
