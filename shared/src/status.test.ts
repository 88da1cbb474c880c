import { describe, expect, it } from 'vitest';
import { alertStatusLabel, prettifyStatus } from './status.ts';

describe('status labels', () => {
  it('shows ACTIVE and FIRING as Enabled', () => {
    expect(alertStatusLabel('ACTIVE')).toBe('Enabled');
    expect(alertStatusLabel('FIRING')).toBe('Enabled');
  });

  it('prettifies the other statuses from upper snake case', () => {
    expect(alertStatusLabel('BOOKED')).toBe('Booked');
    expect(alertStatusLabel('ERROR')).toBe('Error');
    expect(prettifyStatus('NEEDS_MANUAL_REVIEW')).toBe('Needs Manual Review');
  });
});
