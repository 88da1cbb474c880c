import type { RestRoute } from '../../http/rest.ts';
import type { HealthReport } from './health.service.ts';

export const healthRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/health',
    procedure: 'health.get',
    statusFrom: (data) => ((data as HealthReport).status === 'ok' ? 200 : 503),
  },
];
