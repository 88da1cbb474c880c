import { describe, expect, it } from 'vitest';
import {
  createNotificationServiceInput,
  displayLabel,
  notificationHistoryInput,
  notificationMessages,
} from './notification-service.schema.ts';

function firstMessage(input: unknown): string | undefined {
  const r = createNotificationServiceInput.safeParse(input);
  return r.success ? undefined : r.error.issues[0]?.message;
}

const headers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `X-H${i}`, value: `v${i}` }));

describe('notification service schemas', () => {
  it('defaults a webhook to POST with the content template and drops blank header rows', () => {
    const r = createNotificationServiceInput.parse({
      type: 'WEBHOOK',
      label: '  ',
      config: {
        url: ' https://hooks.example.com/x ',
        headers: [
          { name: 'X-A', value: '1' },
          { name: '', value: ' ' },
        ],
      },
    });
    expect(r).toEqual({
      type: 'WEBHOOK',
      label: null,
      config: {
        url: 'https://hooks.example.com/x',
        method: 'POST',
        headers: [{ name: 'X-A', value: '1' }],
        bodyTemplate: '{"content": "{{message}}"}',
      },
    });
  });

  it('answers the spec messages per type', () => {
    expect(firstMessage({ type: 'WEBHOOK', config: { url: 'not a url' } })).toBe(
      notificationMessages.webhookUrlInvalid,
    );
    expect(firstMessage({ type: 'WEBHOOK', config: { url: 'ftp://example.com/x' } })).toBe(
      notificationMessages.webhookUrlInvalid,
    );
    expect(
      firstMessage({
        type: 'WEBHOOK',
        config: { url: 'https://e.com', headers: [{ name: '', value: 'x' }] },
      }),
    ).toBe('Header name is required');
    expect(
      firstMessage({
        type: 'WEBHOOK',
        config: { url: 'https://e.com', headers: [{ name: 'X-A', value: '' }] },
      }),
    ).toBe('Header value is required');
    expect(firstMessage({ type: 'WEBHOOK', config: { url: 'https://e.com', headers: headers(16) } })).toBe(
      'A maximum of 15 headers is supported',
    );
    expect(
      firstMessage({ type: 'WEBHOOK', config: { url: 'https://e.com', headers: headers(15) } }),
    ).toBeUndefined();
    expect(firstMessage({ type: 'SLACK_WEBHOOK', config: { url: 'nope' } })).toBe(
      'Slack webhook URL must be a valid URL',
    );
    expect(firstMessage({ type: 'EMAIL', config: { toEmail: 'nope' } })).toBe(
      'Destination email must be valid',
    );
    expect(firstMessage({ type: 'SMS', config: { toNumber: ' ' } })).toBe('Destination number is required');
  });

  it('refuses header names the server sets or HTTP forbids', () => {
    expect(
      firstMessage({
        type: 'WEBHOOK',
        config: { url: 'https://e.com', headers: [{ name: 'Webhook-Signature', value: 'x' }] },
      }),
    ).toBe('Header Webhook-Signature is set by the server and cannot be changed');
    expect(
      firstMessage({
        type: 'WEBHOOK',
        config: { url: 'https://e.com', headers: [{ name: 'X A', value: 'x' }] },
      }),
    ).toBe(notificationMessages.headerNameInvalid);
  });

  it('keeps a history limit of at least 1, rounded down and capped', () => {
    expect(notificationHistoryInput.parse({ limit: '2.9' })).toEqual({ limit: 2 });
    expect(notificationHistoryInput.parse({ limit: 1000 })).toEqual({ limit: 100 });
    expect(notificationHistoryInput.parse(undefined)).toBeUndefined();
    expect(notificationHistoryInput.safeParse({ limit: '0' }).success).toBe(false);
    expect(notificationHistoryInput.safeParse({ limit: 'abc' }).success).toBe(false);
  });

  it('cuts webhook labels at 40 characters for display only', () => {
    expect(displayLabel({ type: 'WEBHOOK', label: 'x'.repeat(41) })).toHaveLength(40);
    expect(displayLabel({ type: 'SLACK_WEBHOOK', label: 'x'.repeat(41) })).toHaveLength(41);
  });
});
