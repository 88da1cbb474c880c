import { authRouter } from '../modules/auth/auth.router.ts';
import { healthRouter } from '../modules/health/health.router.ts';
import { notificationServicesRouter } from '../modules/notification-services/notification-services.router.ts';
import { notificationsRouter } from '../modules/notifications/notifications.router.ts';
import { proxiesRouter } from '../modules/proxies/proxies.router.ts';
import {
  adminRegistrationsRouter,
  registrationsRouter,
} from '../modules/registrations/registrations.router.ts';
import { templateGroupsRouter } from '../modules/template-groups/template-groups.router.ts';
import { templatesRouter } from '../modules/templates/templates.router.ts';
import { usersRouter } from '../modules/users/users.router.ts';
import { router } from './trpc.ts';

/** The whole API: each module contributes one router. */
export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  users: usersRouter,
  proxies: proxiesRouter,
  registrations: registrationsRouter,
  adminRegistrations: adminRegistrationsRouter,
  templates: templatesRouter,
  templateGroups: templateGroupsRouter,
  notificationServices: notificationServicesRouter,
  notifications: notificationsRouter,
});

export type AppRouter = typeof appRouter;
