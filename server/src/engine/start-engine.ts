import {
  buildRequest,
  type EditableField,
  evaluateWatch,
  type HttpMethod,
  type Overrides,
  requestKey,
} from '@resort/shared';
import {
  listActiveProxies,
  recordProxyFailure,
  recordProxySuccess,
} from '../modules/proxies/proxies.repo.ts';
import type { Services } from '../services.ts';
import { createEngine } from './engine.ts';
import { sendBuiltRequest } from './send-built-request.ts';

/**
 * The engine wired to the product's real parts: the shared request builder and evaluator, the
 * guarded outbound client, the proxies' bookkeeping and the notifications pipeline.
 */
export function createEngineFromServices(
  services: Pick<Services, 'db' | 'config' | 'log' | 'outbound' | 'notifications'>,
) {
  const { db } = services;
  return createEngine({
    db,
    config: services.config,
    log: services.log,
    build: (template, alert) =>
      buildRequest(
        {
          targetUrl: template.target_url,
          method: template.method as HttpMethod,
          defaultHeaders: template.default_headers,
          defaultQuery: template.default_query,
          defaultBody: template.default_body ?? undefined,
          editableFields: template.editable_fields as EditableField[],
        },
        {
          customHeaders: alert.custom_headers,
          customQuery: alert.custom_query,
          customBody: alert.custom_body ?? undefined,
          overrides: alert.overrides as Overrides,
        },
      ),
    requestKey,
    send: (req, proxy) => sendBuiltRequest(services.outbound, req, { proxy }),
    evaluate: (config, data, previous) => evaluateWatch(config, data, previous),
    notify: (input) => services.notifications.createNotification(input),
    proxies: {
      listActive: () => listActiveProxies(db),
      success: (proxyId, url) => recordProxySuccess(db, proxyId, url),
      failure: (proxyId, reason) => recordProxyFailure(db, proxyId, reason),
    },
  });
}
