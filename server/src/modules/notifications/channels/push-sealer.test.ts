import { afterEach, describe, expect, it } from 'vitest';
import { browserPushKeys, decryptPush } from '../../../../test/helpers/web-push-decrypt.ts';
import { createPushSealer, type PushSealer } from './push-sealer.ts';

let sealer: PushSealer | null = null;
afterEach(async () => {
  await sealer?.close();
  sealer = null;
});

function job(keys: { p256dh: string; auth: string }, payload: string) {
  return {
    subscription: { endpoint: 'https://push.example.test/send/abc', keys },
    payload,
    authorization: 'vapid t=token, k=key',
    ttlSeconds: 900,
    urgency: 'high' as const,
  };
}

describe('push sealer', () => {
  it('seals in its threads a request each subscription decrypts, with the push headers', async () => {
    sealer = createPushSealer(2);
    const browsers = [browserPushKeys(), browserPushKeys(), browserPushKeys()];
    const sealed = await Promise.all(
      browsers.map((b, i) =>
        sealer!.seal(job({ p256dh: b.p256dh, auth: b.auth.toString('base64url') }, `{"n":${i}}`)),
      ),
    );
    sealed.forEach((request, i) => {
      expect(request.method).toBe('POST');
      expect(request.endpoint).toBe('https://push.example.test/send/abc');
      expect(request.headers).toMatchObject({
        authorization: 'vapid t=token, k=key',
        ttl: '900',
        urgency: 'high',
        'content-encoding': 'aes128gcm',
      });
      expect(decryptPush(Buffer.from(request.body!), browsers[i]!)).toBe(`{"n":${i}}`);
    });
  });

  it('starts its threads ahead of the first push and seals on them', async () => {
    sealer = createPushSealer(2);
    expect(sealer.threads()).toBe(0);
    await sealer.start();
    expect(sealer.threads()).toBe(2);
    await sealer.start();
    expect(sealer.threads()).toBe(2);
    const browser = browserPushKeys();
    const keys = { p256dh: browser.p256dh, auth: browser.auth.toString('base64url') };
    const sealed = await Promise.all([sealer.seal(job(keys, '{"n":1}')), sealer.seal(job(keys, '{"n":2}'))]);
    expect(sealer.threads()).toBe(2);
    expect(sealed.map((r) => decryptPush(Buffer.from(r.body!), browser))).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("answers the library's refusal of a subscription's keys and goes on sealing", async () => {
    sealer = createPushSealer(1);
    await expect(sealer.seal(job({ p256dh: 'short', auth: 'short' }, '{}'))).rejects.toThrow(
      /p256dh|16 bytes|65 bytes/,
    );
    const browser = browserPushKeys();
    const request = await sealer.seal(
      job({ p256dh: browser.p256dh, auth: browser.auth.toString('base64url') }, '{}'),
    );
    expect(decryptPush(Buffer.from(request.body!), browser)).toBe('{}');
  });

  it('fails what a stopped thread held and seals again on a new one', async () => {
    sealer = createPushSealer(1);
    const browser = browserPushKeys();
    const keys = { p256dh: browser.p256dh, auth: browser.auth.toString('base64url') };
    const pending = sealer.seal(job(keys, '{"held":true}'));
    await sealer.close();
    await expect(pending).rejects.toThrow(/push sealer stopped/);
    const request = await sealer.seal(job(keys, '{"again":true}'));
    expect(decryptPush(Buffer.from(request.body!), browser)).toBe('{"again":true}');
  });
});
