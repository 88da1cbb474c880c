/** The soak's closing report (scripts/soak.ts): figures by minute and overall, events, sizes, verdict. */
import os from 'node:os';
import { printTable } from './bench-lib.ts';
import { logLevels, type ProcessEvent } from './soak-processes.ts';
import type { Receiver } from './soak-receivers.ts';
import type { NotificationFigures, PollFigures, TableSizes } from './soak-report.ts';
import type { SoakCounts } from './soak-seed.ts';
import type { Upstream } from './soak-upstreams.ts';

/** The healthy alerts' lateness target (ms): p99 under one second. */
const LATENESS_P99_TARGET_MS = 1000;

export interface SoakRun {
  minutes: number;
  counts: SoakCounts;
  from: number;
  until: number;
  intervalMs: number;
  perMinute: { polls: PollFigures; openings: { expected: number; received: number } }[];
  polls: PollFigures;
  notifications: NotificationFigures;
  events: ProcessEvent[];
  upstreams: { healthy: Upstream; nul: Upstream; odd: Upstream; hanging: Upstream & { open(): number } };
  receivers: { prompt: Receiver; slow: Receiver; nulError: Receiver };
  logs: { app: string; worker: string };
  sizes: { start: TableSizes; end: TableSizes };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} kB`;
const distinct = (r: Receiver) =>
  `${r.arrivals.length} (${new Set(r.arrivals.map((a) => a.webhookId)).size})`;
const levels = (log: string) => Object.values(logLevels(log)).join(' / ');

function printSizes(sizes: SoakRun['sizes']): void {
  const rows = [...sizes.end.keys()].map((table) => {
    const [a, b] = [sizes.start.get(table), sizes.end.get(table)];
    return [
      table,
      a && b ? `${a.rows.toLocaleString('en')} → ${b.rows.toLocaleString('en')}` : 'missing',
      a && b ? `${kb(a.bytes)} → ${kb(b.bytes)}` : '',
    ];
  });
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length), 14));
  console.log('\nTable sizes, start → end');
  console.log(['table', 'rows', 'bytes'].map((h, c) => h.padEnd(widths[c]!)).join('  '));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
}

/** Prints the report; answers whether the soak met its targets. */
export function printSoakReport(r: SoakRun): boolean {
  const clock = (at: number) => {
    const s = Math.round((at - r.from) / 1000);
    return `+${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };
  const { polls, notifications: n } = r;
  console.log(
    `\nSoak: ${r.minutes} min; ${r.counts.healthy} healthy alerts every ${r.intervalMs / 1000} s; ` +
      `${r.counts.nul} NUL-host, ${r.counts.odd} odd-host and ${r.counts.hanging} hanging-host alerts`,
  );
  console.log('\nminute  healthy polls done/due  lateness p50/p99 ms  openings notified/expected');
  r.perMinute.forEach((m, i) => {
    console.log(
      `${String(i + 1).padEnd(6)}  ${`${m.polls.done}/${m.polls.due}`.padEnd(22)}  ` +
        `${`${m.polls.p50 ?? '-'} / ${m.polls.p99 ?? '-'}`.padEnd(19)}  ${m.openings.received}/${m.openings.expected}`,
    );
  });

  const missed = Math.max(0, polls.due - polls.done);
  const duplicated = n.repeats + n.extra;
  printTable('Healthy alerts', [
    ['polls done / due', `${polls.done} / ${polls.due}`],
    ['missed polls', missed],
    ['lateness p50 / p99 (ms)', `${polls.p50} / ${polls.p99}`],
    ['notifications expected / received', `${n.expected} / ${n.received}`],
    ['lost (expected, never received)', n.lost.length],
    ['duplicated: a webhook id again', n.repeats],
    ['duplicated: in flight at a kill (±30 s)', n.repeatsInFlight],
    ['duplicated: a 2nd notification for one opening', n.extra],
    ['unexpected: belongs to no opening', n.unexpected],
    ['late (> 1 interval after the opening)', n.late],
  ]);
  for (const o of n.lost.slice(0, 10)) console.log(`lost: alert ref ${o.ref}, opened at ${clock(o.openAt)}`);
  if (n.lost.length > 10) console.log(`lost: … and ${n.lost.length - 10} more`);

  printTable('Misbehaviour and processes', [
    ...r.events.map((e): [string, string] => [clock(e.at), e.what]),
    [
      'hanging host: requests, held at the end',
      `${r.upstreams.hanging.requests}, ${r.upstreams.hanging.open()}`,
    ],
    ['NUL host / odd host: requests', `${r.upstreams.nul.requests} / ${r.upstreams.odd.requests}`],
    ['slow receiver: arrivals (webhook ids)', distinct(r.receivers.slow)],
    ['NUL-error receiver: arrivals (webhook ids)', distinct(r.receivers.nulError)],
    ['app log: warn / error / fatal lines', levels(r.logs.app)],
    ['extra worker log: warn / error / fatal', levels(r.logs.worker)],
    [
      'load average at the end (1/5/15 min)',
      os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    ],
  ]);
  printSizes(r.sizes);

  const p99 = polls.p99 ?? Number.POSITIVE_INFINITY;
  const met =
    n.lost.length === 0 &&
    duplicated === 0 &&
    n.unexpected === 0 &&
    missed === 0 &&
    p99 < LATENESS_P99_TARGET_MS;
  console.log(
    `\nVerdict: ${met ? 'MET' : 'NOT MET'}: lost ${n.lost.length} (target 0); duplicated ${duplicated}, ` +
      `besides ${n.repeatsInFlight} in flight at a kill (target 0); unexpected ${n.unexpected} (target 0); ` +
      `missed healthy polls ${missed} (target 0); healthy lateness p99 ${polls.p99 ?? 'n/a'} ms ` +
      `(target < ${LATENESS_P99_TARGET_MS} ms)`,
  );
  return met;
}
