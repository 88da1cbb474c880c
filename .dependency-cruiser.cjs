/**
 * Import rules of the product code (docs/architecture.md): `npm run lint` runs them.
 *
 * server/src has three rings, and imports point inward only:
 *   entry     http/ and engine/ (and the process roots runtime.ts, worker.ts)
 *   modules   modules/<domain>/ — a domain reaches another domain through its service
 *   platform  platform/ — knows no domain
 *   base      db/, jobs/ (queue registry), config.ts, and the shared package
 * Type-only imports count like any other, except where a rule says so: the entry rings run no SQL,
 * so they import kysely and db/ for types only, and never pg.
 */
const server = '^server/src/';
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'An import cycle in product code hides which module depends on which.',
      severity: 'error',
      from: { path: '^(server|shared|client)/src/', pathNot: '\\.test\\.tsx?$' },
      to: { circular: true },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ is used by the server and the client; it imports neither.',
      severity: 'error',
      from: { path: '^shared/src/' },
      to: { path: '^(server|client)/' },
    },
    {
      name: 'base-ring-imports-only-base',
      comment: 'db/, jobs/ and config.ts sit below every ring: they import only each other and shared/.',
      severity: 'error',
      from: { path: `${server}(db/|jobs/|config\\.ts)`, pathNot: '\\.test\\.ts$' },
      to: { path: `${server}(platform|modules|http|engine)/|${server}(runtime|worker)\\.ts` },
    },
    {
      name: 'platform-knows-no-domain',
      comment:
        'platform/ imports only platform/, the base ring and shared/: never a module or an entry ring.',
      severity: 'error',
      from: { path: `${server}platform/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${server}(modules|http|engine)/|${server}(runtime|worker)\\.ts` },
    },
    {
      name: 'modules-never-import-entry-rings',
      comment: 'A module is called by http/ and engine/; it never calls back up into them.',
      severity: 'error',
      from: { path: `${server}modules/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${server}(http|engine)/|${server}(runtime|worker)\\.ts` },
    },
    {
      name: 'module-reaches-module-through-its-service',
      comment: "A module never imports another module's repository; it calls that module's service.",
      severity: 'error',
      from: { path: `${server}modules/([^/]+)/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${server}modules/[^/]+/.*\\.repo\\.ts$`, pathNot: `${server}modules/$1/` },
    },
    {
      name: 'entry-rings-use-services-not-repos',
      comment: "http/ and engine/ call module services; a module's repository is that module's own.",
      severity: 'error',
      from: { path: `${server}(http|engine)/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${server}modules/.*\\.repo\\.ts$` },
    },
    {
      name: 'entry-rings-run-no-sql',
      comment:
        'http/ and engine/ reach the database only through module services: they import kysely for ' +
        'types at most, so no SQL can be written there.',
      severity: 'error',
      from: { path: `${server}(http|engine)/` },
      to: { path: '(^|/)node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entry-rings-use-no-pg-driver',
      comment: 'http/ and engine/ never hold a database connection, not even as a type.',
      severity: 'error',
      from: { path: `${server}(http|engine)/` },
      to: { path: '(^|/)node_modules/(pg|@types/pg)/' },
    },
    {
      name: 'entry-rings-use-db-types-only',
      comment:
        'http/ and engine/ may name the table types of db/ but never import its values (the Kysely ' +
        'instance, SQL fragments, the migrator): statements belong to the modules.',
      severity: 'error',
      from: { path: `${server}(http|engine)/` },
      to: { path: `${server}db/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entry-rings-stay-apart',
      comment: 'http/ and engine/ are two entries side by side: neither imports the other.',
      severity: 'error',
      from: { path: `${server}http/` },
      to: { path: `${server}engine/` },
    },
    {
      name: 'engine-does-not-import-http',
      severity: 'error',
      from: { path: `${server}engine/` },
      to: { path: `${server}http/` },
    },
    {
      name: 'no-product-imports-tests',
      comment: 'Product code never imports test code.',
      severity: 'error',
      from: { path: '^(server|shared|client)/src/', pathNot: '\\.test\\.tsx?$|/test/' },
      to: { path: '(^server/test/|\\.test\\.tsx?$|^client/src/test/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Packages stay in the graph as leaves (doNotFollow), so the rules can name kysely and pg.
    exclude: { path: '^(client/|server/|shared/)?dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
