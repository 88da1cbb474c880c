import { describe, expect, it } from 'vitest';
import { activityWithHealth, alertRecord } from '@/features/alerts/alert-fixtures.ts';
import { seriousAlerts } from './alert-health-panel.tsx';

const withHealth = (id: string, health: 'healthy' | 'degraded' | 'failing' | 'drifted') =>
  alertRecord({ id, activity: activityWithHealth(health) });

describe('the dashboard health panel', () => {
  it('lists failing alerts, then drifted ones, and nothing else', () => {
    const alerts = [
      withHealth('a', 'drifted'),
      withHealth('b', 'healthy'),
      withHealth('c', 'failing'),
      withHealth('d', 'degraded'),
      alertRecord({ id: 'e' }),
    ];
    expect(seriousAlerts(alerts).map((a) => a.id)).toEqual(['c', 'a']);
  });
});
