import { alertHealths, type DeliveryFigures, pollClasses } from '@resort/shared';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../../platform/logger.ts';
import { cachedFor } from './cached.ts';

/** One template's alerts per health, as the alerts module counts them. */
export interface TemplateHealthFigures {
  templateName: string;
  polled: number;
  failing: number;
  drifted: number;
  degraded: number;
}

/** Lateness buckets (seconds): on time is under 0.1 s; a poll late by more than 30 s is rescheduled. */
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The operator's figures for GET /metrics (Prometheus text format, prom-client): this process's
 * polls by class and their lateness, and, read from the database when scraped (cached briefly), the
 * pool's alerts per health, per template, and the delivery queue with its ages.
 */
export function createMetrics(deps: {
  templateHealth: () => Promise<TemplateHealthFigures[]>;
  deliveryFigures: () => Promise<DeliveryFigures>;
  log: Logger;
  cacheMs?: number;
}) {
  const registry = new Registry();
  const registers = [registry];
  const templates = cachedFor(deps.cacheMs ?? 2000, deps.templateHealth);
  const deliveries = cachedFor(deps.cacheMs ?? 2000, deps.deliveryFigures);
  // A scrape answers even while the database is away: the database's figures are then left out.
  const read = async <T>(what: string, load: () => Promise<T>): Promise<T | null> =>
    load().catch((err) => {
      deps.log.warn({ err }, `metrics: reading ${what} failed`);
      return null;
    });

  const polls = new Counter({
    name: 'resort_polls_total',
    help: 'Polls this process made, by outcome class (matched, not_matched, drift, refused, upstream_error, …).',
    labelNames: ['class'],
    registers,
  });
  for (const c of pollClasses) polls.inc({ class: c }, 0);
  const lateness = new Histogram({
    name: 'resort_poll_lateness_seconds',
    help: "How late this process's polls started after their due time.",
    buckets: LATENESS_BUCKETS,
    registers,
  });

  new Gauge({
    name: 'resort_alerts',
    help: 'Polled alerts by health (healthy, degraded, failing, drifted).',
    labelNames: ['health'],
    registers,
    async collect() {
      const rows = await read('template health', templates);
      if (!rows) return;
      const sum = (f: (r: TemplateHealthFigures) => number) => rows.reduce((n, r) => n + f(r), 0);
      const failing = sum((r) => r.failing);
      const drifted = sum((r) => r.drifted);
      const degraded = sum((r) => r.degraded);
      const counts = {
        healthy: sum((r) => r.polled) - failing - drifted - degraded,
        degraded,
        failing,
        drifted,
      };
      for (const h of alertHealths) this.set({ health: h }, counts[h]);
    },
  });
  new Gauge({
    name: 'resort_template_alerts',
    help: "Each template's polled alerts by health.",
    labelNames: ['template', 'health'],
    registers,
    async collect() {
      const rows = await read('template health', templates);
      if (!rows) return;
      this.reset();
      for (const r of rows) {
        const healthy = r.polled - r.failing - r.drifted - r.degraded;
        const counts = { healthy, degraded: r.degraded, failing: r.failing, drifted: r.drifted };
        for (const h of alertHealths) this.set({ template: r.templateName, health: h }, counts[h]);
      }
    },
  });
  new Gauge({
    name: 'resort_delivery_queue',
    help: 'Undelivered deliveries: pending (due now or waiting for a retry) and due now.',
    labelNames: ['state'],
    registers,
    async collect() {
      const d = await read('delivery figures', deliveries);
      if (!d) return;
      this.set({ state: 'pending' }, d.pending);
      this.set({ state: 'due' }, d.due);
    },
  });
  const deliveryAge = (name: string, help: string, pick: (d: DeliveryFigures) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const d = await read('delivery figures', deliveries);
        if (d) this.set(pick(d) ?? 0);
      },
    });
  deliveryAge(
    'resort_delivery_oldest_pending_seconds',
    'Age of the oldest undelivered delivery (0 when none).',
    (d) => d.oldestPendingSeconds,
  );
  deliveryAge(
    'resort_delivery_oldest_due_seconds',
    'How long the longest-waiting due delivery has waited (0 when none).',
    (d) => d.oldestDueSeconds,
  );

  return {
    /** Counts one written poll of this process. */
    recordPoll(pollClass: string, latenessMs: number) {
      polls.inc({ class: pollClass });
      lateness.observe(latenessMs / 1000);
    },
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
