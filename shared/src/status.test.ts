import { describe, expect, it } from 'vitest';
import { alertStatusLabel, deliveryStatusLabel, prettifyStatus } from './status.ts';

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

  it('names the dispatch statuses as SPEC.md does', () => {
    expect(deliveryStatusLabel('PENDING')).toBe('Pending dispatch');
    expect(deliveryStatusLabel('SUCCESS')).toBe('Delivered');
    expect(deliveryStatusLabel('FAILURE')).toBe('Failed');
    expect(deliveryStatusLabel('RETRYING')).toBe('Retrying');
  });
});
