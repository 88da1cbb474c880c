import type { RestRoute } from '../../http/rest.ts';

export const authRest: RestRoute[] = [
  { method: 'POST', path: '/auth/register', procedure: 'auth.register', status: 201 },
  { method: 'POST', path: '/auth/login', procedure: 'auth.login' },
  { method: 'POST', path: '/auth/refresh', procedure: 'auth.refresh' },
  { method: 'POST', path: '/auth/logout', procedure: 'auth.logout' },
  { method: 'GET', path: '/auth/me', procedure: 'auth.me' },
  { method: 'POST', path: '/users/me/password', procedure: 'auth.changePassword' },
];
