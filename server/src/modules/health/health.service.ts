import type { DeliveryFigures } from '@resort/shared';
import { sql } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../db/database.ts';
import type { TemplateHealth } from '../alerts/alert-health.service.ts';
import { cachedFor } from './cached.ts';

export interface HealthReport {
  status: 'ok' | 'degraded';
  database: { ready: boolean; error?: string };
  queue: { ready: boolean; error?: string };
  engine?: unknown;
  /** The delivery outbox: backlog, oldest undelivered, deliveries of the last minute. */
  deliveries?: DeliveryFigures | { error: string };
  /** Each template's health (the alerts module's figures). */
  templates?: TemplateHealth[];
}

export function createHealthService(deps: {
  db: Database;
  boss: PgBoss | null;
  engineFigures?: () => Promise<unknown> | unknown;
  deliveryFigures?: () => Promise<DeliveryFigures>;
  templateHealth?: () => Promise<TemplateHealth[]>;
}) {
  const deliveryFigures = deps.deliveryFigures ? cachedFor(2000, deps.deliveryFigures) : null;
  const templateHealth = deps.templateHealth ? cachedFor(2000, deps.templateHealth) : null;
  return {
    async check(): Promise<HealthReport> {
      const database = await sql`SELECT 1`
        .execute(deps.db)
        .then(() => ({ ready: true }))
        .catch(() => ({ ready: false, error: 'database unreachable' }));
      let queue: HealthReport['queue'];
      if (!deps.boss) {
        queue = { ready: false, error: 'queue not started' };
      } else {
        queue = await deps.boss
          .isInstalled()
          .then((ok) => (ok ? { ready: true } : { ready: false, error: 'queue schema missing' }))
          .catch(() => ({ ready: false, error: 'queue unreachable' }));
      }
      const report: HealthReport = {
        status: database.ready && queue.ready ? 'ok' : 'degraded',
        database,
        queue,
      };
      if (deps.engineFigures) {
        // The figures read the database: while it is down, health must still answer (503, degraded).
        report.engine = await Promise.resolve()
          .then(deps.engineFigures)
          .catch(() => ({ error: 'engine figures unavailable' }));
      }
      if (deliveryFigures) {
        report.deliveries = await deliveryFigures().catch(() => ({ error: 'delivery figures unavailable' }));
      }
      if (templateHealth) {
        // Left out while the database is away: health still answers.
        const templates = await templateHealth().catch(() => null);
        if (templates) report.templates = templates;
      }
      return report;
    },
  };
}
