import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { type ClaimedAlert, loadTemplates, type TemplateForPolling } from './engine.repo.ts';

const LIMIT = 10_000;

/**
 * Templates of claimed alerts, kept by id and re-read when the claim shows a newer `updated_at`, so
 * an admin's edit takes effect at the next poll without a template query per batch.
 */
export function createTemplateCache(db: Kysely<DB>) {
  const templates = new Map<string, TemplateForPolling>();
  return {
    async load(alerts: ClaimedAlert[]): Promise<void> {
      const missing = new Set<string>();
      for (const a of alerts) {
        const cached = templates.get(a.template_id);
        if (!cached || cached.updated_at.getTime() !== a.template_updated_at.getTime())
          missing.add(a.template_id);
      }
      if (missing.size === 0) return;
      if (templates.size > LIMIT) templates.clear();
      for (const t of await loadTemplates(db, [...missing])) templates.set(t.id, t);
    },
    get: (id: string): TemplateForPolling => templates.get(id)!,
  };
}
