import type { RestRoute } from '../../http/rest.ts';

export const notificationsRest: RestRoute[] = [
  { method: 'GET', path: '/users/me/notification-history', procedure: 'notifications.history' },
];
