import { defaultChannelIds } from '@resort/shared';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { createDnsResolver, systemResolver } from '../platform/outbound/address-guard.ts';
import { createDestinationCheck } from '../platform/outbound/destination.ts';
import { createOutboundClient } from '../platform/outbound/outbound-client.ts';
import { sendBuiltRequest } from '../platform/outbound/send-built-request.ts';
import { createRateLimits } from '../platform/rate-limiter.ts';
import { createAlertInsightService } from './alert-insight/alert-insight.service.ts';
import { createAlertArchiveService } from './alerts/alert-archive.service.ts';
import { createAlertHealthService } from './alerts/alert-health.service.ts';
import { createAlertPollingService } from './alerts/alert-polling.service.ts';
import { createAlertService } from './alerts/alerts.service.ts';
import { createApiTokenService } from './api-tokens/api-tokens.service.ts';
import { createAccountMailer } from './auth/account-mail.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createRecoveryService, revokeCredentials } from './auth/recovery.service.ts';
import { createTokenService, loadSigningSecret } from './auth/tokens.ts';
import { createEngineFigures } from './health/engine-figures.ts';
import { createHealthService } from './health/health.service.ts';
import { createMetrics } from './health/metrics.ts';
import { createLiveHub } from './live/live.hub.ts';
import {
  createNotificationServicesService,
  listNotificationServicesForUser,
} from './notification-services/notification-services.service.ts';
import { createChannels } from './notifications/channels/index.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import { retryPolicyFromConfig } from './notifications/retry-schedule.ts';
import { loadVapidKeys } from './notifications/vapid-keys.ts';
import { createProxyService } from './proxies/proxies.service.ts';
import { createTemplateGroupService } from './template-groups/template-groups.service.ts';
import { templateGenerators } from './templates/generators/index.ts';
import { createTemplateService } from './templates/templates.service.ts';
import { createAccountsService } from './users/accounts.service.ts';
import { createUserService } from './users/users.service.ts';
import { createArchiveService } from './watchlists/archive.service.ts';
import { createWatchlistService } from './watchlists/watchlists.service.ts';

interface ServiceDeps {
  config: Config;
  db: Database;
  boss: PgBoss | null;
  log: Logger;
  clock?: Clock;
  /**
   * For the LISTEN connections (live events, account changes): without it no events are pushed and
   * every account lookup reads the database.
   */
  databaseUrl?: string;
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
  // The one guarded client for every call to a user- or admin-supplied URL (docs/product.md, "Outbound safety").
  const outbound = createOutboundClient({
    allowlist: config.OUTBOUND_ALLOWLIST,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    maxBytes: config.OUTBOUND_MAX_BYTES,
    ...(config.OUTBOUND_DNS_SERVERS.length ? { resolver } : {}),
  });
  // Every rate limit lives in PostgreSQL, so all app processes share one budget per key.
  const rateLimits = createRateLimits(db);
  const alerts = createAlertService({
    db,
    clock,
    rateLimits,
    send: (req) => sendBuiltRequest(outbound, req),
    defaultServiceIds: async (userId) =>
      defaultChannelIds(await users.preferences(userId), await listNotificationServicesForUser(db, userId)),
  });
  // The engine's statements on the alert row (claims, leases, write-back), as a narrow service.
  const alertPolling = createAlertPollingService({ db, databaseUrl: deps.databaseUrl });
  const alertInsight = createAlertInsightService({
    db,
    clock,
    alerts,
    retentionHours: config.POLL_RUN_RETENTION_HOURS,
  });
  const users = createUserService({
    db,
    listNotificationServices: (userId) => listNotificationServicesForUser(db, userId),
    listAlerts: (userId) => alerts.listForUser(userId),
    databaseUrl: deps.databaseUrl ?? null,
    log,
  });
  const accounts = createAccountsService({
    db,
    clock,
    defaultSignupPolicy: config.SIGNUP_POLICY,
    revokeCredentials,
    alerts,
    forgetAccount: (userId) => users.forgetAccount(userId),
  });
  const recovery = createRecoveryService({
    db,
    clock,
    mailer: createAccountMailer({ config, log }),
    config,
    rateLimits,
    forgetAccount: (userId) => users.forgetAccount(userId),
  });
  const auth = createAuthService({
    db,
    tokens,
    clock,
    config,
    log,
    rateLimits,
    removeAccount: (userId) => accounts.removeOwn(userId),
  });
  const apiTokens = createApiTokenService({
    db,
    clock,
    ratePerMinute: config.API_TOKEN_RATE_LIMIT_PER_MINUTE,
    rateLimits,
  });
  const proxies = createProxyService({ db });
  const templateGroups = createTemplateGroupService({ db });
  const templates = createTemplateService({
    db,
    clock,
    generators: templateGenerators,
    send: (req) => sendBuiltRequest(outbound, req),
    countAlerts: (templateId) => alerts.countUsingTemplate(templateId),
  });
  const vapid = await loadVapidKeys(db);
  const channels = createChannels({ config, outbound, log, clock, vapid });
  const notificationServices = createNotificationServicesService({
    db,
    channels,
    webPushPublicKey: vapid.publicKey,
    checkDestination: createDestinationCheck(config.OUTBOUND_ALLOWLIST, resolver),
    clock,
    rateLimits,
    sendsPerHour: config.CHANNEL_SENDS_PER_HOUR,
  });
  const notifications = createNotificationsService({
    db,
    channels,
    clock,
    log,
    retryPolicy: retryPolicyFromConfig(config),
    leaseSeconds: config.DELIVERY_LEASE_SECONDS,
    skipReason: (d) => notificationServices.skipReason(d),
  });
  const alertHealth = createAlertHealthService({
    db,
    notify: (inputs) => notifications.createNotifications(inputs),
    clock,
    log,
    delaySeconds: config.HEALTH_NOTICE_DELAY_SECONDS,
    adminIds: () => users.adminIds(),
    sweepMs: config.HEALTH_SWEEP_MS,
  });
  const metrics = createMetrics({
    templateHealth: () => alertHealth.templateHealth(),
    deliveryFigures: () => notifications.figures(),
    log,
  });
  const health = createHealthService({
    db,
    boss,
    engineFigures: createEngineFigures({ db, alerts: alertPolling }),
    deliveryFigures: () => notifications.figures(),
    templateHealth: () => alertHealth.templateHealth(),
  });
  const watchlists = createWatchlistService({
    db,
    clock,
    listAlerts: (userId) => alerts.listForUser(userId),
    alerts,
  });
  const archive = createArchiveService({ alerts: createAlertArchiveService({ db }), clock });
  const live = createLiveHub({ db, databaseUrl: deps.databaseUrl ?? null, log });
  return {
    config,
    db,
    live,
    boss,
    log,
    clock,
    tokens,
    apiTokens,
    users,
    accounts,
    recovery,
    auth,
    health,
    outbound,
    channels,
    proxies,
    notificationServices,
    notifications,
    templateGroups,
    templates,
    alerts,
    alertPolling,
    alertHealth,
    metrics,
    watchlists,
    archive,
    alertInsight,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

// Procedures reach the services through ctx.services; the platform's Context leaves their type to
// this composition root (platform knows no domain).
declare module '../platform/trpc/context.ts' {
  interface ProcedureServices extends Services {}
}
