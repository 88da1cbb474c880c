import type { RestRoute } from '../../http/rest.ts';

export const usersRest: RestRoute[] = [
  { method: 'GET', path: '/users/me', procedure: 'users.me' },
  { method: 'PATCH', path: '/users/me', procedure: 'users.updateProfile' },
];
