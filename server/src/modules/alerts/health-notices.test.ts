import { describe, expect, it } from 'vitest';
import type { UntoldHealth } from './alert-health.repo.ts';
import { buildHealthNotices, toldStateOf } from './health-notices.ts';

const now = new Date('2026-11-24T06:30:00Z');
const row = (over: Partial<UntoldHealth>): UntoldHealth => ({
  id: 'a1',
  user_id: 'u1',
  title: 'Family room',
  party_name: null,
  template_id: 't1',
  template_name: 'Harbour Hotel rooms',
  status: 'ERROR',
  health: 'failing',
  health_cause: 'refused',
  health_since: new Date('2026-11-24T06:10:00Z'),
  health_told: 'healthy',
  last_success_at: new Date('2026-11-24T06:09:00Z'),
  health_notices: true,
  ...over,
});

describe('health notices', () => {
  it('groups one owner’s alerts by kind and cause, and keys each group by its alerts', () => {
    const notices = buildHealthNotices(
      [
        row({ id: 'a1' }),
        row({ id: 'a2', title: 'Suite' }),
        row({ id: 'a3', health_cause: 'timeout' }),
        row({
          id: 'a4',
          user_id: 'u2',
          health: 'healthy',
          health_cause: null,
          health_told: 'failing',
          status: 'ACTIVE',
        }),
      ],
      now,
    );
    expect(notices.map((n) => [n.userId, n.kind, n.metadata?.count])).toEqual([
      ['u1', 'FAILING', 2],
      ['u1', 'FAILING', 1],
      ['u2', 'RECOVERED', 1],
    ]);
    expect(notices[0]!.message).toBe(
      '2 of your alerts (Harbour Hotel rooms (2)) cannot see availability since 2026-11-24 06:10 UTC: refused by ' +
        'the site (blocked, login or rate limit). Until they work again, no room is reported. Last successful ' +
        'check: 2026-11-24 06:09 UTC. The site is blocking automated checks: try a longer polling interval, or ' +
        'ask an admin to route the template through a proxy.',
    );
    expect(notices[1]!.message).toMatch(
      /^Alert "Family room" \(Harbour Hotel rooms\) cannot see availability/,
    );
    expect(notices[2]!.message).toMatch(/works again/);
    // The same changes give the same keys: a retried round creates nothing twice.
    expect(buildHealthNotices([row({ id: 'a1' }), row({ id: 'a2' })], now)[0]!.eventKey).toBe(
      notices[0]!.eventKey,
    );
  });

  it('tells nobody who turned notices off, nor of alerts no longer polled; degraded keeps what was told', () => {
    expect(
      buildHealthNotices([row({ health_notices: false }), row({ id: 'a2', status: 'BOOKED' })], now),
    ).toEqual([]);
    expect(toldStateOf({ health: 'degraded', health_told: 'failing' })).toBe('failing');
    expect(toldStateOf({ health: 'drifted', health_told: 'healthy' })).toBe('drifted');
  });
});
