/**
 * `npm run bench -- http-floor [--rate 1666] [--duration 60] [--warmup 10]`: the least CPU a poll's HTTP
 * can cost this machine, to read the engine's CPU per poll against. Sends `--rate` GETs a second to
 * the loopback simulator through one undici Agent (keep-alive), each with its own query as the engine
 * benchmark's alerts have, reads each body as text and parses it as JSON, and nothing else: no
 * database, no rules, no outbound guard. Prints this process's CPU per request (garbage collection
 * included) and the simulator's. docs/performance.md, "Engine", quotes it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { cpuSeconds, printTable, round, startChild, stopChild } from './bench-lib.ts';

export async function runHttpFloorBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rate: { type: 'string', default: '1666' },
      duration: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '10' },
    },
  });
  const rate = Number(values.rate);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  if (![rate, duration, warmup].every((n) => Number.isFinite(n) && n >= 0) || rate === 0) {
    throw new Error('Usage: npm run bench -- http-floor [--rate R] [--duration S] [--warmup S]');
  }
  const sim = await startChild(
    'scripts/simulator.ts',
    ['--port', '0', '--seed', '42'],
    {},
    { waitForLine: true },
  );
  const origin = (JSON.parse(sim.firstLine!) as { simulator: string }).simulator;
  const agent = new Agent({ connections: 64 });
  let sent = 0;
  let answered = 0;
  let failed = 0;
  const one = async (k: number) => {
    try {
      const res = await agent.request({
        origin,
        path: `/availability?resort=LL&checkIn=2027-06-10&adults=${1 + (k % 4)}&ref=${k % 100_000}`,
        method: 'GET',
      });
      JSON.parse(await res.body.text());
      answered++;
    } catch {
      failed++;
    }
  };
  // Requests go out in slices every 10 ms, as due polls do on the engine's timers, as many as the
  // rate owes since the start (a late timer sends more, not fewer).
  const started = performance.now();
  const timer = setInterval(() => {
    const owed = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sent < owed) void one(sent++);
  }, 10);
  try {
    await sleep(warmup * 1000);
    const cpu0 = process.cpuUsage();
    const sim0 = cpuSeconds(sim.child.pid!);
    const answered0 = answered;
    const wall0 = performance.now();
    await sleep(duration * 1000);
    const wall = (performance.now() - wall0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const requests = answered - answered0;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    printTable(`HTTP floor: ${rate} GETs/s through one undici Agent, ${round(wall)} s measured`, [
      ['requests/s answered', round(requests / wall)],
      ['failed requests', failed],
      ['CPU per request, this process (ms)', round(cpuMs / Math.max(1, requests), 3)],
      ['this process CPU (% of one core)', round(cpuMs / 10 / wall)],
      ['simulator CPU (% of one core)', round(((cpuSeconds(sim.child.pid!) - sim0) / wall) * 100)],
    ]);
  } finally {
    clearInterval(timer);
    await agent.close();
    await stopChild(sim.child);
  }
}
