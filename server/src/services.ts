import type { PgBoss } from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createDestinationCheck } from './engine/channels/destination.ts';
import { createChannels } from './engine/channels/index.ts';
import { createEngineFigures } from './engine/engine-figures.ts';
import { createDnsResolver, systemResolver } from './engine/outbound/address-guard.ts';
import { createOutboundClient } from './engine/outbound/outbound-client.ts';
import { sendBuiltRequest } from './engine/send-built-request.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import type { Logger } from './lib/logger.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createTokenService, loadSigningSecret } from './modules/auth/tokens.ts';
import { createHealthService } from './modules/health/health.service.ts';
import { listNotificationServicesForUser } from './modules/notification-services/notification-services.repo.ts';
import { createNotificationServicesService } from './modules/notification-services/notification-services.service.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { retryPolicyFromConfig } from './modules/notifications/retry-schedule.ts';
import { createProxyService } from './modules/proxies/proxies.service.ts';
import { createRegistrationService } from './modules/registrations/registrations.service.ts';
import { createTemplateGroupService } from './modules/template-groups/template-groups.service.ts';
import { templateGenerators } from './modules/templates/generators/index.ts';
import { createTemplateService } from './modules/templates/templates.service.ts';
import { createUserService } from './modules/users/users.service.ts';

export interface ServiceDeps {
  config: Config;
  db: Database;
  boss: PgBoss | null;
  log: Logger;
  clock?: Clock;
}

/** The composition root: builds every domain service from narrow dependencies. */
export async function createServices(deps: ServiceDeps) {
  const { config, db, boss, log } = deps;
  const clock = deps.clock ?? systemClock;
  const tokens = createTokenService({
    secret: await loadSigningSecret(db, config.JWT_SECRET),
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  const resolver = config.OUTBOUND_DNS_SERVERS.length
    ? createDnsResolver(config.OUTBOUND_DNS_SERVERS)
    : systemResolver;
  // The one guarded client for every call to a user- or admin-supplied URL (DESIGN.md §7).
  const outbound = createOutboundClient({
    allowlist: config.OUTBOUND_ALLOWLIST,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    maxBytes: config.OUTBOUND_MAX_BYTES,
    ...(config.OUTBOUND_DNS_SERVERS.length ? { resolver } : {}),
  });
  const registrations = createRegistrationService({
    db,
    clock,
    send: (req) => sendBuiltRequest(outbound, req),
  });
  const users = createUserService({
    db,
    listNotificationServices: (userId) => listNotificationServicesForUser(db, userId),
    listRegistrations: (userId) => registrations.listForUser(userId),
  });
  const auth = createAuthService({ db, tokens, clock, config, log });
  const health = createHealthService({
    db,
    boss,
    engineFigures: createEngineFigures({ db, workerTimeoutSeconds: config.ENGINE_WORKER_TIMEOUT_SECONDS }),
  });
  const proxies = createProxyService({ db });
  const templateGroups = createTemplateGroupService({ db });
  const templates = createTemplateService({
    db,
    clock,
    generators: templateGenerators,
    send: (req) => sendBuiltRequest(outbound, req),
  });
  const channels = createChannels({ config, outbound, log, clock });
  const notificationServices = createNotificationServicesService({
    db,
    channels,
    checkDestination: createDestinationCheck(config.OUTBOUND_ALLOWLIST, resolver),
    clock,
  });
  const notifications = createNotificationsService({
    db,
    boss,
    channels,
    clock,
    log,
    retryPolicy: retryPolicyFromConfig(config),
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
  });
  return {
    config,
    db,
    boss,
    log,
    clock,
    tokens,
    users,
    auth,
    health,
    outbound,
    proxies,
    notificationServices,
    notifications,
    templateGroups,
    templates,
    registrations,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
