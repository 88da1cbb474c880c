import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { PollingTemplate, TemplateService } from '../modules/templates/templates.service.ts';

const LIMIT = 10_000;

/** Where the cache reads templates: the templates service, which converts each once. */
export type TemplateSource = Pick<TemplateService, 'forPolling'>;

/**
 * Templates of claimed alerts, kept by id and re-read when the claim shows a newer `updated_at`, so
 * an admin's edit takes effect at the next poll without a template query per batch. Each comes
 * converted to the builder's request template, by the same conversion the template live test and
 * the alert test use.
 */
export function createTemplateCache(source: TemplateSource) {
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
      for (const t of await source.forPolling([...missing])) templates.set(t.id, t);
    },
    get: (id: string): PollingTemplate => templates.get(id)!,
  };
}
