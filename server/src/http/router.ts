import { alertInsightRouter } from '../modules/alert-insight/alert-insight.router.ts';
import { adminAlertsRouter, alertsRouter } from '../modules/alerts/alerts.router.ts';
import { apiTokensRouter } from '../modules/api-tokens/api-tokens.router.ts';
import { authRouter } from '../modules/auth/auth.router.ts';
import { healthRouter } from '../modules/health/health.router.ts';
import { liveRouter } from '../modules/live/live.router.ts';
import { notificationServicesRouter } from '../modules/notification-services/notification-services.router.ts';
import { notificationsRouter } from '../modules/notifications/notifications.router.ts';
import { proxiesRouter } from '../modules/proxies/proxies.router.ts';
// ctx.services is typed by the modules' composition root (declaration merging); this type import
// brings that declaration to whoever types against AppRouter, the client included.
import type {} from '../modules/services.ts';
import { templateGroupsRouter } from '../modules/template-groups/template-groups.router.ts';
import { templatesRouter } from '../modules/templates/templates.router.ts';
import {
  adminUsersRouter,
  invitationsRouter,
  signupSettingsRouter,
} from '../modules/users/accounts.router.ts';
import { usersRouter } from '../modules/users/users.router.ts';
import { archiveRouter, dashboardRouter, watchlistsRouter } from '../modules/watchlists/watchlists.router.ts';
import { router } from '../platform/trpc/trpc.ts';

/** The whole API: each module contributes one router. */
export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  users: usersRouter,
  adminUsers: adminUsersRouter,
  signupSettings: signupSettingsRouter,
  invitations: invitationsRouter,
  proxies: proxiesRouter,
  alerts: alertsRouter,
  adminAlerts: adminAlertsRouter,
  templates: templatesRouter,
  templateGroups: templateGroupsRouter,
  notificationServices: notificationServicesRouter,
  notifications: notificationsRouter,
  apiTokens: apiTokensRouter,
  watchlists: watchlistsRouter,
  archive: archiveRouter,
  dashboard: dashboardRouter,
  alertInsight: alertInsightRouter,
  live: liveRouter,
});

export type AppRouter = typeof appRouter;
