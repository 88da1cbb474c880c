import type { RestRoute } from '../../http/rest.ts';

export const templateGroupsRest: RestRoute[] = [
  { method: 'GET', path: '/template-groups', procedure: 'templateGroups.list' },
  { method: 'POST', path: '/template-groups', procedure: 'templateGroups.create', status: 201 },
  { method: 'GET', path: '/template-groups/:id', procedure: 'templateGroups.get' },
  { method: 'PATCH', path: '/template-groups/:id', procedure: 'templateGroups.update' },
  { method: 'DELETE', path: '/template-groups/:id', procedure: 'templateGroups.delete' },
];
