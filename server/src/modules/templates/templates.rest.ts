import type { RestRoute } from '../../http/rest.ts';

export const templatesRest: RestRoute[] = [
  { method: 'GET', path: '/templates', procedure: 'templates.list' },
  { method: 'POST', path: '/templates', procedure: 'templates.create', status: 201 },
  // Static segments win over /templates/:id in Fastify's router, so the order here does not matter.
  { method: 'GET', path: '/templates/generators', procedure: 'templates.generators' },
  { method: 'GET', path: '/templates/generators/:id', procedure: 'templates.generatorSample' },
  { method: 'GET', path: '/templates/:id', procedure: 'templates.get' },
  { method: 'PATCH', path: '/templates/:id', procedure: 'templates.update' },
  { method: 'DELETE', path: '/templates/:id', procedure: 'templates.delete' },
  { method: 'POST', path: '/templates/:id/test', procedure: 'templates.test' },
];
