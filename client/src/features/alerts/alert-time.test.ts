import { describe, expect, it } from 'vitest';
import { exactTime, relativeTime } from './alert-time.tsx';

describe('alert times', () => {
  const now = Date.parse('2027-01-02T15:00:00Z');

  it('says how long ago or how soon, in words', () => {
    expect(relativeTime('2027-01-02T14:57:00Z', now, 'en-US')).toBe('3 minutes ago');
    expect(relativeTime('2027-01-02T15:00:20Z', now, 'en-US')).toBe('in 20 seconds');
    expect(relativeTime('2027-01-01T15:00:00Z', now, 'en-US')).toBe('yesterday');
  });

  it('gives the exact time with its zone', () => {
    expect(exactTime('2027-01-02T15:00:05Z', 'en-US')).toMatch(/Jan 2, 2027.*\d{1,2}:00:05.*(EST|GMT|UTC)/);
  });
});
