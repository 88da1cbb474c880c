import { evaluateWatch } from '@resort/shared';
import { describe, expect, it } from 'vitest';
import { buildNotification, eventKey } from './message.ts';

const subject = {
  alertId: 'r1',
  templateId: 't1',
  templateName: 'Grand Floridian rooms',
  title: 'Summer trip',
  partyName: 'Smith family',
};
const answer = {
  rooms: [
    { name: 'Lagoon View', available: true, remaining: 2, price: 689 },
    { name: 'Garden View', available: false, remaining: 0, price: 1200 },
    { name: 'Theme Park View', available: true, remaining: 1, price: 950 },
  ],
};
const watch = {
  any: [
    { path: 'rooms[*].price', operator: 'lte' as const, value: 1000, label: 'Price' },
    { path: 'rooms[*].view', operator: 'equals' as const, value: 'lake' },
  ],
};
const evaluation = evaluateWatch(watch, answer, null);
const context = {
  dueAt: new Date('2030-06-01T10:00:00Z'),
  observedAt: new Date('2030-06-01T10:00:00.120Z'),
  statusCode: 200,
};

describe('buildNotification', () => {
  it('names the alert and, in words, only the values that satisfied a rule', () => {
    const { message, metadata } = buildNotification('MATCH', subject, evaluation, context, answer);
    expect(message).toBe(
      'Alert "Summer trip" matched (Grand Floridian rooms, party Smith family): ' +
        'Lagoon View: 2 rooms available at $689; Theme Park View: 1 room available at $950.',
    );
    expect(message).not.toContain('1200');
    expect(metadata).toMatchObject({
      timestamp: '2030-06-01T10:00:00.120Z',
      kind: 'MATCH',
      conditions: [{ path: 'rooms[*].price', operator: 'lte', expected: 1000, values: [689, 950] }],
    });
  });

  it('says which rules no longer hold on resolution, and falls back to the template name', () => {
    const lapsed = evaluateWatch(watch, { rooms: [{ name: 'Lagoon View', price: 1500 }] }, null);
    const { message } = buildNotification(
      'RESOLVED',
      { ...subject, title: null, partyName: null },
      lapsed,
      context,
    );
    expect(message).toBe(
      'Alert "Grand Floridian rooms" no longer matches (Grand Floridian rooms): ' +
        'Price no longer holds; rooms[*].view no longer holds.',
    );
  });

  it('keys one event per alert, due time and kind', () => {
    expect(eventKey('r1', context.dueAt, 'MATCH')).toBe('r1:2030-06-01T10:00:00.000Z:MATCH');
  });
});
