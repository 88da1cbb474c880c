import { buildRequest, evaluateWatch, type Overrides, requestKey } from '@resort/shared';
import type { Services } from '../modules/services.ts';
import { sendBuiltRequest } from '../platform/outbound/send-built-request.ts';
import { createEngine } from './engine.ts';

/**
 * The engine wired to the product's real parts: the alerts module's polling service, the templates
 * service, the shared request builder and evaluator, the guarded outbound client, the proxies'
 * bookkeeping and the notifications pipeline.
 */
export function createEngineFromServices(
  services: Pick<
    Services,
    | 'alertPolling'
    | 'alertHealth'
    | 'metrics'
    | 'templates'
    | 'config'
    | 'log'
    | 'outbound'
    | 'notifications'
    | 'proxies'
  >,
) {
  return createEngine({
    alerts: services.alertPolling,
    templates: services.templates,
    config: services.config,
    log: services.log,
    build: (template, alert) =>
      buildRequest(template, {
        customHeaders: alert.custom_headers,
        customQuery: alert.custom_query,
        customBody: alert.custom_body ?? undefined,
        overrides: alert.overrides as Overrides,
      }),
    requestKey,
    send: (req, proxy) => sendBuiltRequest(services.outbound, req, { proxy }),
    evaluate: (config, data, previous) => evaluateWatch(config, data, previous),
    notify: (inputs) => services.notifications.createNotifications(inputs),
    tellHealth: () => services.alertHealth.tellRound(),
    metrics: services.metrics,
    proxies: services.proxies.rotation,
  });
}
