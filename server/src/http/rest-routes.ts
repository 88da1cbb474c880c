import { authRest } from '../modules/auth/auth.rest.ts';
import { healthRest } from '../modules/health/health.rest.ts';
import { notificationServicesRest } from '../modules/notification-services/notification-services.rest.ts';
import { notificationsRest } from '../modules/notifications/notifications.rest.ts';
import { proxiesRest } from '../modules/proxies/proxies.rest.ts';
import { registrationsRest } from '../modules/registrations/registrations.rest.ts';
import { templateGroupsRest } from '../modules/template-groups/template-groups.rest.ts';
import { templatesRest } from '../modules/templates/templates.rest.ts';
import { usersRest } from '../modules/users/users.rest.ts';
import type { RestRoute } from './rest.ts';

/** The REST surface of SPEC.md §7 (plus what real accounts need): the whole adapter layer. */
export const restRoutes: readonly RestRoute[] = [
  ...healthRest,
  ...authRest,
  ...usersRest,
  ...proxiesRest,
  ...registrationsRest,
  ...templatesRest,
  ...templateGroupsRest,
  ...notificationServicesRest,
  ...notificationsRest,
];
