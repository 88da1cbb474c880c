import type { RestRoute } from '../../http/rest.ts';

export const notificationServicesRest: RestRoute[] = [
  { method: 'GET', path: '/users/me/notification-services', procedure: 'notificationServices.list' },
  {
    method: 'POST',
    path: '/users/me/notification-services',
    procedure: 'notificationServices.create',
    status: 201,
  },
  { method: 'POST', path: '/users/me/notification-services/test', procedure: 'notificationServices.test' },
  { method: 'PATCH', path: '/users/me/notification-services/:id', procedure: 'notificationServices.update' },
  { method: 'DELETE', path: '/users/me/notification-services/:id', procedure: 'notificationServices.remove' },
  {
    method: 'POST',
    path: '/users/me/notification-services/:id/rotate-secret',
    procedure: 'notificationServices.rotateSecret',
  },
];
