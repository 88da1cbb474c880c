import { describe, expect, it } from 'vitest';
import { buildNotification, eventKey } from './message.ts';

const subject = {
  registrationId: 'r1',
  templateId: 't1',
  templateName: 'Grand Floridian rooms',
  title: 'Summer trip',
  partyName: 'Smith family',
};
const evaluation = {
  matched: true,
  values: {},
  results: [
    {
      condition: { path: 'rooms[*].price', operator: 'lte' as const, value: 400, label: 'Price' },
      holds: true,
      values: [350, 390],
    },
    {
      condition: { path: 'rooms[*].view', operator: 'equals' as const, value: 'lake' },
      holds: false,
      values: [],
    },
  ],
};
const context = {
  dueAt: new Date('2030-06-01T10:00:00Z'),
  observedAt: new Date('2030-06-01T10:00:00.120Z'),
  statusCode: 200,
};

describe('buildNotification', () => {
  it('names the alert, template, party and what matched', () => {
    const { message, metadata } = buildNotification('MATCH', subject, evaluation, context);
    expect(message).toBe(
      'Alert "Summer trip" matched (Grand Floridian rooms, party Smith family): Price (rooms[*].price) ≤ 400: found 350, 390.',
    );
    expect(metadata).toMatchObject({
      timestamp: '2030-06-01T10:00:00.120Z',
      kind: 'MATCH',
      conditions: [{ path: 'rooms[*].price', operator: 'lte', expected: 400, values: [350, 390] }],
    });
  });

  it('says what no longer holds on resolution, and falls back to the template name', () => {
    const { message } = buildNotification(
      'RESOLVED',
      { ...subject, title: null, partyName: null },
      { ...evaluation, matched: false },
      context,
    );
    expect(message).toBe(
      'Alert "Grand Floridian rooms" no longer matches (Grand Floridian rooms): rooms[*].view = lake: found nothing.',
    );
  });

  it('keys one event per alert, due time and kind', () => {
    expect(eventKey('r1', context.dueAt, 'MATCH')).toBe('r1:2030-06-01T10:00:00.000Z:MATCH');
  });
});
