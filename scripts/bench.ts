/**
 * `npm run bench -- <benchmark> [options]`. Benchmarks:
 *   engine  the polling engine against the loopback simulator (scripts/bench-engine.ts)
 *   windows  the engine with stay-window alerts on overlapping windows (scripts/bench-engine.ts)
 *   delivery  a burst of matches delivered to loopback receivers (scripts/bench-delivery.ts)
 *   api     an authenticated REST read against a bare Fastify route doing the same SQL (scripts/bench-api.ts)
 *   transfer  bytes of a cold /login in Chromium against the built SPA (scripts/bench-transfer.ts)
 *   alert-page  the alert page with 48 h of 5 s polls: its data, then the built SPA in Chromium (scripts/bench-alert-page.ts)
 *   idle    `npm start` with nothing to do: app and database-backend CPU, RSS (scripts/bench-idle.ts)
 *   seal    the CPU a Web Push message costs to seal, and its parts (scripts/bench-seal.ts)
 *   http-floor  the least CPU a poll's HTTP costs: GETs to the simulator and nothing else (scripts/bench-http-floor.ts)
 */
import { runAlertPageBench } from './bench-alert-page.ts';
import { runApiBenchCli } from './bench-api.ts';
import { runDeliveryBench } from './bench-delivery.ts';
import { runEngineBench } from './bench-engine.ts';
import { runHttpFloorBench } from './bench-http-floor.ts';
import { runIdleBench } from './bench-idle.ts';
import { runSealBench } from './bench-seal.ts';
import { runTransferBench } from './bench-transfer.ts';

const benchmarks: Record<string, (argv: string[]) => Promise<void>> = {
  engine: runEngineBench,
  windows: (argv) => runEngineBench(argv, 'windows'),
  api: runApiBenchCli,
  delivery: runDeliveryBench,
  transfer: runTransferBench,
  'alert-page': runAlertPageBench,
  idle: runIdleBench,
  seal: runSealBench,
  'http-floor': runHttpFloorBench,
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
  console.error(`Benchmark failed: ${(error as Error | undefined)?.stack ?? String(error)}`);
  process.exit(1);
}
