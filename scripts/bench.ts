/**
 * `npm run bench -- <benchmark> [options]`. Benchmarks:
 *   engine  the polling engine against the loopback simulator (scripts/bench-engine.ts)
 *   api     an authenticated REST read against a bare Fastify route doing the same SQL (scripts/bench-api.ts)
 */
import { runApiBenchCli } from './bench-api.ts';
import { runEngineBench } from './bench-engine.ts';

const benchmarks: Record<string, (argv: string[]) => Promise<void>> = {
  engine: runEngineBench,
  api: runApiBenchCli,
};

const [name, ...argv] = process.argv.slice(2);
const run = name ? benchmarks[name] : undefined;
if (!run) {
  console.error(`Usage: npm run bench -- <${Object.keys(benchmarks).join('|')}> [options]`);
  process.exit(2);
}
try {
  await run(argv);
  process.exit(0);
} catch (error) {
  console.error(`Benchmark failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
}
