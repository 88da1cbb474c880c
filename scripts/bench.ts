/**
 * `npm run bench -- <benchmark> [options]`. Benchmarks:
 *   engine  the polling engine against the loopback simulator (scripts/bench-engine.ts)
 */
import { runEngineBench } from './bench-engine.ts';

const benchmarks: Record<string, (argv: string[]) => Promise<void>> = {
  engine: runEngineBench,
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
