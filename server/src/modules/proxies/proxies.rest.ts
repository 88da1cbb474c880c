import type { RestRoute } from '../../http/rest.ts';

export const proxiesRest: RestRoute[] = [
  { method: 'GET', path: '/proxies', procedure: 'proxies.list' },
  { method: 'POST', path: '/proxies', procedure: 'proxies.create', status: 201 },
  { method: 'POST', path: '/proxies/import', procedure: 'proxies.import' },
  { method: 'POST', path: '/proxies/bulk-status', procedure: 'proxies.bulkStatus' },
  { method: 'PATCH', path: '/proxies/:id', procedure: 'proxies.update' },
  { method: 'DELETE', path: '/proxies/:id', procedure: 'proxies.remove' },
  { method: 'POST', path: '/proxies/:id/reset-failures', procedure: 'proxies.resetFailures' },
];
