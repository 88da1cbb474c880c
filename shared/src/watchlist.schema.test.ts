import { describe, expect, it } from 'vitest';
import { defaultChannelIds, watchlistCreateInput, watchlistMessages } from './watchlist.schema.ts';

describe('defaultChannelIds', () => {
  const services = [
    { id: 'mail', type: 'EMAIL', isActive: true },
    { id: 'phone', type: 'SMS', isActive: true },
    { id: 'hook', type: 'WEBHOOK', isActive: true },
    { id: 'old-mail', type: 'EMAIL', isActive: false },
  ];
  it('takes every active service, with e-mail and SMS only where the preferences switch them on', () => {
    expect(defaultChannelIds({ push: true, email: true, sms: false, healthNotices: true }, services)).toEqual(
      ['mail', 'hook'],
    );
    expect(defaultChannelIds({ push: false, email: true, sms: true, healthNotices: true }, services)).toEqual(
      ['mail', 'phone', 'hook'],
    );
    expect(
      defaultChannelIds({ push: true, email: false, sms: false, healthNotices: true }, services),
    ).toEqual(['hook']);
  });
});

describe('watchlistCreateInput', () => {
  it("answers 'Name required' and turns blank optional fields into null", () => {
    const blank = watchlistCreateInput.safeParse({ name: '   ' });
    expect(blank.success ? null : blank.error.issues[0]?.message).toBe(watchlistMessages.nameRequired);
    expect(watchlistCreateInput.parse({ name: ' Trip ', resortCode: ' ', notes: '' })).toEqual({
      name: 'Trip',
      resortCode: null,
      notes: null,
    });
  });
});
