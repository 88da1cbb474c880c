import type { RequestTemplate } from '@resort/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { toRequestTemplate } from '../modules/templates/templates.service.ts';
import { type ClaimedAlert, loadTemplates } from './engine.repo.ts';

const LIMIT = 10_000;

/** A template as the poller uses it: its name for messages and its request, converted once. */
export interface PollingTemplate {
  id: string;
  name: string;
  updatedAt: Date;
  request: RequestTemplate;
}

/**
 * Templates of claimed alerts, kept by id and re-read when the claim shows a newer `updated_at`, so
 * an admin's edit takes effect at the next poll without a template query per batch. Each is
 * converted to the builder's request template when read, by the same conversion the template live
 * test and the alert test use.
 */
export function createTemplateCache(db: Kysely<DB>) {
  const templates = new Map<string, PollingTemplate>();
  return {
    async load(alerts: ClaimedAlert[]): Promise<void> {
      const missing = new Set<string>();
      for (const a of alerts) {
        const cached = templates.get(a.template_id);
        if (!cached || cached.updatedAt.getTime() !== a.template_updated_at.getTime())
          missing.add(a.template_id);
      }
      if (missing.size === 0) return;
      if (templates.size > LIMIT) templates.clear();
      for (const t of await loadTemplates(db, [...missing])) {
        templates.set(t.id, {
          id: t.id,
          name: t.name,
          updatedAt: t.updated_at,
          request: toRequestTemplate(t),
        });
      }
    },
    get: (id: string): PollingTemplate => templates.get(id)!,
  };
}
