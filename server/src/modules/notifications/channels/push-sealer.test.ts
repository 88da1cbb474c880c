import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/receivers.ts';
import {
  type BrowserPushKeys,
  browserPushKeys,
  decryptPush,
} from '../../../../test/helpers/web-push-decrypt.ts';
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

const keysOf = (b: BrowserPushKeys) => ({ p256dh: b.p256dh, auth: b.auth.toString('base64url') });

/** The sender's public key a sealed body names (RFC 8188 header: salt, rs, idlen, keyid). */
const senderKeyOf = (body: Uint8Array) => Buffer.from(body.subarray(21, 21 + body[20]!)).toString('hex');

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

  it("prepares a browser's keys ahead, and a burst to it seals from them, one key a message", async () => {
    // Refills wait a minute after a seal: what the burst takes is not put back during the test.
    sealer = createPushSealer(1, { keysPerBrowser: 8, keysPerThread: 64, quietMs: 60_000 });
    const browser = browserPushKeys();
    sealer.prepare([browser.p256dh]);
    await waitFor(async () => (await sealer!.reserves()).keys === 8, 'the browser reserve of 8 keys');
    expect(await sealer.reserves()).toEqual({ browsers: 1, keys: 8 });

    const sealed = await Promise.all(
      Array.from({ length: 9 }, (_, i) => sealer!.seal(job(keysOf(browser), `{"n":${i}}`))),
    );
    expect(sealed.map((r) => r.prepared)).toEqual([...Array(8).fill(true), false]);
    expect(sealed.map((r) => decryptPush(Buffer.from(r.body!), browser))).toEqual(
      Array.from({ length: 9 }, (_, i) => `{"n":${i}}`),
    );
    // Every message has a sender key of its own (RFC 8291), prepared or not.
    expect(new Set(sealed.map((r) => senderKeyOf(r.body!))).size).toBe(9);
    expect(sealed[0]!.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(sealed[0]!.body!.length),
    });
    expect(await sealer.reserves()).toEqual({ browsers: 1, keys: 0 });
  });

  it('refills a reserve once its thread has had nothing to seal for a while', async () => {
    sealer = createPushSealer(1, { keysPerBrowser: 4, keysPerThread: 64, quietMs: 50 });
    const browser = browserPushKeys();
    const first = await sealer.seal(job(keysOf(browser), '{"n":1}'));
    // A browser first met in a push has nothing prepared; its reserve fills after the push.
    expect(first.prepared).toBe(false);
    await waitFor(async () => (await sealer!.reserves()).keys === 4, 'the reserve refilled to 4 keys');
    const second = await sealer.seal(job(keysOf(browser), '{"n":2}'));
    expect(second.prepared).toBe(true);
    expect(decryptPush(Buffer.from(second.body!), browser)).toBe('{"n":2}');
    await waitFor(async () => (await sealer!.reserves()).keys === 4, 'the reserve refilled again');
  });

  it("shares a thread's budget among its browsers; the least recently used gives its reserve up", async () => {
    sealer = createPushSealer(1, { keysPerBrowser: 8, keysPerThread: 4, quietMs: 60_000 });
    const browsers = Array.from({ length: 6 }, () => browserPushKeys());
    sealer.prepare(browsers.map((b) => b.p256dh));
    // Four browsers fit, a key each; the two named first gave theirs up.
    await waitFor(async () => (await sealer!.reserves()).keys === 4, 'a key for each of 4 browsers');
    expect(await sealer.reserves()).toEqual({ browsers: 4, keys: 4 });
    const dropped = await sealer.seal(job(keysOf(browsers[0]!), '{"dropped":true}'));
    expect(dropped.prepared).toBe(false);
    expect(decryptPush(Buffer.from(dropped.body!), browsers[0]!)).toBe('{"dropped":true}');
    const kept = await sealer.seal(job(keysOf(browsers[5]!), '{"kept":true}'));
    expect(kept.prepared).toBe(true);
    expect(decryptPush(Buffer.from(kept.body!), browsers[5]!)).toBe('{"kept":true}');
    expect((await sealer.reserves()).browsers).toBe(4);
  });

  it('prepares nothing for a key that is not a browser key, and goes on preparing the others', async () => {
    sealer = createPushSealer(1, { keysPerBrowser: 2, keysPerThread: 64, quietMs: 60_000 });
    const browser = browserPushKeys();
    // 65 bytes, but not a point on the curve.
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    sealer.prepare(['short', offCurve.toString('base64url'), browser.p256dh]);
    await waitFor(async () => (await sealer!.reserves()).keys === 2, "the browser's 2 keys");
    const sealed = await sealer.seal(job(keysOf(browser), '{}'));
    expect(sealed.prepared).toBe(true);
    await expect(
      sealer.seal(job({ p256dh: offCurve.toString('base64url'), auth: keysOf(browser).auth }, '{}')),
    ).rejects.toThrow();
  });
});
