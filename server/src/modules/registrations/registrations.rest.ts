import type { RestRoute } from '../../http/rest.ts';

export const registrationsRest: RestRoute[] = [
  { method: 'GET', path: '/users/me/registrations', procedure: 'registrations.list' },
  { method: 'POST', path: '/registrations', procedure: 'registrations.create', status: 201 },
  { method: 'POST', path: '/registrations/test', procedure: 'registrations.test' },
  { method: 'GET', path: '/registrations/:id', procedure: 'registrations.get' },
  { method: 'PATCH', path: '/registrations/:id', procedure: 'registrations.update' },
  { method: 'DELETE', path: '/registrations/:id', procedure: 'registrations.remove' },
  { method: 'GET', path: '/admin/registrations', procedure: 'adminRegistrations.list' },
  { method: 'GET', path: '/admin/registrations/:id', procedure: 'adminRegistrations.get' },
  { method: 'PATCH', path: '/admin/registrations/:id', procedure: 'adminRegistrations.update' },
  { method: 'DELETE', path: '/admin/registrations/:id', procedure: 'adminRegistrations.remove' },
];
