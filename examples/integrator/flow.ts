import createClient from 'openapi-fetch';
import type { components, paths } from './api.d.ts';

type Alert = components['schemas']['Registration'];
type NotificationRecord = components['schemas']['NotificationRecord'];
type AlertBody = components['schemas']['RegistrationPayloadInput'];

export interface FlowResult {
  serviceId: string;
  alert: Alert;
  /** A flexible-dates alert (any 4–5 nights, arriving Thursday to Saturday), where a template declares its stay. */
  windowAlert: Alert | null;
  history: NotificationRecord[];
}

/** YYYY-MM-DD, `days` from now. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Throws with the API's own `{ message, code }` when a call fails. */
function ok<T>(what: string, result: { data?: T; error?: { message: string; code: string } }): T {
  if (result.error) throw new Error(`${what}: ${result.error.code} ${result.error.message}`);
  if (result.data === undefined) throw new Error(`${what}: no answer`);
  return result.data;
}

/**
 * The integrator's first steps with a personal API token (read-write scope): create a webhook
 * service, create an alert that notifies it, read the alert, create a flexible-dates alert (a window
 * of stays) where a template declares its stay, list notifications, delete the alerts.
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
  const template = templates.find((t) => t.isActive && !t.stay);
  if (!template) throw new Error('No active template to watch.');

  const watchConfig: AlertBody['watchConfig'] = {
    any: [{ path: 'rooms[*].status', operator: 'equals', value: 'OPEN' }],
  };
  const createAlert = async (what: string, body: AlertBody) =>
    ok(what, await api.POST('/api/registrations', { body })).data;

  const created = await createAlert('create alert', {
    templateId: template.id,
    title: 'Summer trip',
    notificationServiceIds: [service.id],
    watchConfig,
  });

  const alert = ok(
    'read alert',
    await api.GET('/api/registrations/{id}', { params: { path: { id: created.id } } }),
  ).data;

  // Flexible dates: one alert watches every stay of a window, on a template that declares its stay.
  const stayTemplate = templates.find((t) => t.isActive && t.stay);
  let windowAlert: Alert | null = null;
  if (stayTemplate) {
    windowAlert = await createAlert('create window alert', {
      templateId: stayTemplate.id,
      title: 'Any 4 or 5 nights, arriving Thursday to Saturday',
      notificationServiceIds: [service.id],
      stayWindow: [
        {
          start: dayFromNow(60),
          end: dayFromNow(90),
          minNights: 4,
          maxNights: 5,
          arrivalWeekdays: ['thu', 'fri', 'sat'],
        },
      ],
      watchConfig,
    });
  }

  const history = ok(
    'list notifications',
    await api.GET('/api/users/me/notification-history', { params: { query: { limit: 10 } } }),
  ).data;

  const removed = await api.DELETE('/api/registrations/{id}', { params: { path: { id: alert.id } } });
  if (removed.error) throw new Error(`delete alert: ${removed.error.code} ${removed.error.message}`);
  if (removed.response.status !== 204) throw new Error(`delete alert: status ${removed.response.status}`);

  if (windowAlert) {
    const gone = await api.DELETE('/api/registrations/{id}', { params: { path: { id: windowAlert.id } } });
    if (gone.error) throw new Error(`delete window alert: ${gone.error.code} ${gone.error.message}`);
  }

  return { serviceId: service.id, alert, windowAlert, history };
}
