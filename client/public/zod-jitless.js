// Zod builds its object parsers with `new Function` when it can, probing for it as the first schema
// is created. The server's CSP (script-src 'self', no 'unsafe-eval') blocks the probe and reports a
// violation, so zod is told up front to skip it. A classic script: it runs before the app's
// modules, which are deferred, and zod reads this object when it loads.
globalThis.__zod_globalConfig = { jitless: true };
