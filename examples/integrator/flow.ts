import createClient from 'openapi-fetch';
import type { components, paths } from './api.d.ts';

type Alert = components['schemas']['Registration'];
type NotificationRecord = components['schemas']['NotificationRecord'];

export interface FlowResult {
  serviceId: string;
  alert: Alert;
  history: NotificationRecord[];
}

/** Throws with the API's own `{ message, code }` when a call fails. */
function ok<T>(what: string, result: { data?: T; error?: { message: string; code: string } }): T {
  if (result.error) throw new Error(`${what}: ${result.error.code} ${result.error.message}`);
  if (result.data === undefined) throw new Error(`${what}: no answer`);
  return result.data;
}

/**
 * The integrator's first steps with a personal API token (read-write scope): create a webhook
 * service, create an alert that notifies it, read the alert, list notifications, delete the alert.
 * Every type comes from the served OpenAPI document (api.d.ts, made by openapi-typescript).
 */
export async function runIntegratorFlow(options: {
  baseUrl: string;
  token: string;
  webhookUrl: string;
}): Promise<FlowResult> {
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}` },
  });

  const service = ok(
    'create webhook service',
    await api.POST('/api/users/me/notification-services', {
      body: {
        type: 'WEBHOOK',
        label: 'Integrator webhook',
        config: { url: options.webhookUrl, method: 'POST' },
      },
    }),
  ).data;

  const templates = ok('list templates', await api.GET('/api/templates')).data;
  const template = templates.find((t) => t.isActive);
  if (!template) throw new Error('No active template to watch.');

  const created = ok(
    'create alert',
    await api.POST('/api/registrations', {
      body: {
        templateId: template.id,
        title: 'Summer trip',
        notificationServiceIds: [service.id],
        watchConfig: { any: [{ path: 'rooms[*].status', operator: 'equals', value: 'OPEN' }] },
      },
    }),
  ).data;

  const alert = ok(
    'read alert',
    await api.GET('/api/registrations/{id}', { params: { path: { id: created.id } } }),
  ).data;

  const history = ok(
    'list notifications',
    await api.GET('/api/users/me/notification-history', { params: { query: { limit: 10 } } }),
  ).data;

  const removed = await api.DELETE('/api/registrations/{id}', { params: { path: { id: alert.id } } });
  if (removed.error) throw new Error(`delete alert: ${removed.error.code} ${removed.error.message}`);
  if (removed.response.status !== 204) throw new Error(`delete alert: status ${removed.response.status}`);

  return { serviceId: service.id, alert, history };
}
