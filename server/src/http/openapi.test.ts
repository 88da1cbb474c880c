import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router } from '../platform/trpc/trpc.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { deriveRestRoutes } from './rest-routes.ts';

const thing = z.object({ id: z.string(), name: z.string(), size: z.number().int() });

/** A router as a new module would write it: REST meta, input and output next to each procedure. */
const demo = router({
  things: router({
    rename: authedProcedure
      .meta({ rest: { method: 'PATCH', path: '/things/:id', errors: [409] } })
      .input(z.object({ id: z.string(), name: z.string().default('unnamed') }))
      .output(thing)
      .mutation(({ input }) => ({ id: input.id, name: input.name, size: 1 })),
    ping: publicProcedure
      .meta({ rest: { method: 'GET', path: '/ping' } })
      .input(z.object({ echo: z.string().optional() }).optional())
      .output(z.object({ pong: z.boolean() }))
      .query(() => ({ pong: true })),
    internal: authedProcedure.query(() => 'tRPC only'),
  }),
});

describe('REST meta → route table → OpenAPI', () => {
  const routes = deriveRestRoutes(demo);
  const doc = buildOpenApiDocument(routes) as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  };

  it('adds a route for each procedure with REST meta and none for the others', () => {
    expect(routes.map((r) => `${r.method} ${r.path} ${r.procedure} ${r.access}`)).toEqual([
      'GET /ping things.ping public',
      'PATCH /things/:id things.rename user',
    ]);
  });

  it('documents each with its body, answer, errors and security; path ids stay in the path', () => {
    const rename = doc.paths['/api/things/{id}']!.patch!;
    expect(rename.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(rename.responses as object)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '415', '429', '500']),
    );
    const body = doc.components.schemas.ThingsRenameBody!;
    expect(Object.keys(body.properties as object)).toEqual(['name']);
    expect(body.required).toBeUndefined();
    expect(JSON.stringify(body)).toContain('Default: `\\"unnamed\\"`');
    expect(doc.components.schemas.ThingsRenameOutput).toMatchObject({ required: ['id', 'name', 'size'] });

    const ping = doc.paths['/api/ping']!.get!;
    expect(ping.security).toEqual([]);
    expect(ping.parameters).toEqual([
      { name: 'echo', in: 'query', required: false, schema: { type: 'string' } },
    ]);
  });

  it('names a renamed router by its contract name in the document, and calls it by its own', () => {
    const renamed = deriveRestRoutes(demo, { things: 'items' });
    expect(renamed.map((r) => `${r.procedure} ${r.operation}`)).toEqual([
      'things.ping items.ping',
      'things.rename items.rename',
    ]);
    const named = buildOpenApiDocument(renamed) as unknown as typeof doc & { tags: { name: string }[] };
    const rename = named.paths['/api/things/{id}']!.patch!;
    expect(rename).toMatchObject({ operationId: 'items.rename', summary: 'items.rename', tags: ['items'] });
    expect(rename.description).toBe('Procedure `items.rename` (mutation); access: user.');
    expect(named.tags.map((t) => t.name)).toEqual(['items']);
    expect(Object.keys(named.components.schemas)).toEqual(
      expect.arrayContaining(['ItemsRenameBody', 'ItemsRenameOutput']),
    );
    expect(JSON.stringify(named)).not.toContain('things.');
  });

  it('refuses two procedures on one method and path', () => {
    const clash = router({
      a: publicProcedure.meta({ rest: { method: 'GET', path: '/x/:id' } }).query(() => 1),
      b: publicProcedure.meta({ rest: { method: 'GET', path: '/x/:key' } }).query(() => 2),
    });
    expect(() => deriveRestRoutes(clash)).toThrow(/declared by both a and b/);
  });
});
