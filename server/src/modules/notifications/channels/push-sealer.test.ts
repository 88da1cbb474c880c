import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/receivers.ts';
import {
  type BrowserPushKeys,
  browserPushKeys,
  decryptPush,
} from '../../../../test/helpers/web-push-decrypt.ts';
import { PREPARED_PAYLOAD_MAX } from './push-seal.ts';
import { createPushSealer, type PushSealer } from './push-sealer.ts';

let sealer: PushSealer | null = null;
afterEach(async () => {
  await sealer?.close();
  sealer = null;
});

const keysOf = (b: BrowserPushKeys) => ({ p256dh: b.p256dh, auth: b.auth.toString('base64url') });

function job(keys: { p256dh: string; auth: string }, payload: string) {
  return {
    endpoint: 'https://push.example.test/send/abc',
    keys,
    payload,
    authorization: 'vapid t=token, k=key',
    ttlSeconds: 900,
    urgency: 'high' as const,
  };
}

/** The sender's public key a sealed body names (RFC 8188 header: salt, rs, idlen, keyid). */
const senderKeyOf = (body: Uint8Array) => Buffer.from(body.subarray(21, 21 + body[20]!)).toString('hex');

/** Refills wait this long after a seal: what a test's burst takes is not put back meanwhile. */
const NO_REFILL = { keysPerBrowser: 8, keysInAll: 64, quietMs: 60_000 };

describe('push sealer', () => {
  it('seals in its threads a request each subscription decrypts, with the push headers', async () => {
    sealer = createPushSealer(2);
    const browsers = [browserPushKeys(), browserPushKeys(), browserPushKeys()];
    const sealed = await Promise.all(browsers.map((b, i) => sealer!.seal(job(keysOf(b), `{"n":${i}}`))));
    sealed.forEach((request, i) => {
      expect(request.method).toBe('POST');
      expect(request.endpoint).toBe('https://push.example.test/send/abc');
      expect(request.headers).toEqual({
        authorization: 'vapid t=token, k=key',
        ttl: '900',
        urgency: 'high',
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
        'content-length': String(request.body.length),
      });
      // Browsers first met in a push: nothing was prepared for them.
      expect(request.prepared).toBe(false);
      expect(decryptPush(Buffer.from(request.body), browsers[i]!)).toBe(`{"n":${i}}`);
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
    const sealed = await Promise.all([
      sealer.seal(job(keysOf(browser), '{"n":1}')),
      sealer.seal(job(keysOf(browser), '{"n":2}')),
    ]);
    expect(sealer.threads()).toBe(2);
    expect(sealed.map((r) => decryptPush(Buffer.from(r.body), browser))).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("answers the library's refusal of a subscription's keys and goes on sealing", async () => {
    sealer = createPushSealer(1);
    await expect(sealer.seal(job({ p256dh: 'short', auth: 'short' }, '{}'))).rejects.toThrow(
      /p256dh|16 bytes|65 bytes/,
    );
    const browser = browserPushKeys();
    const request = await sealer.seal(job(keysOf(browser), '{}'));
    expect(decryptPush(Buffer.from(request.body), browser)).toBe('{}');
  });

  it('fails what a stopped thread held and seals again on a new one', async () => {
    sealer = createPushSealer(1);
    const browser = browserPushKeys();
    const pending = sealer.seal(job(keysOf(browser), '{"held":true}'));
    await sealer.close();
    await expect(pending).rejects.toThrow(/push sealer stopped/);
    const request = await sealer.seal(job(keysOf(browser), '{"again":true}'));
    expect(decryptPush(Buffer.from(request.body), browser)).toBe('{"again":true}');
  });

  it("prepares a browser's keys ahead, and a burst to it seals with them, one key a message", async () => {
    sealer = createPushSealer(1, NO_REFILL);
    const browser = browserPushKeys();
    sealer.prepare([keysOf(browser)]);
    await waitFor(() => sealer!.reserves().keys === 8, 'the browser reserve of 8 keys');
    expect(sealer.reserves()).toEqual({ browsers: 1, keys: 8 });

    const sealed = await Promise.all(
      Array.from({ length: 9 }, (_, i) => sealer!.seal(job(keysOf(browser), `{"n":${i}}`))),
    );
    // Eight with the prepared keys, the ninth sealed whole in the thread.
    expect(sealed.map((r) => r.prepared)).toEqual([...Array(8).fill(true), false]);
    expect(sealed.map((r) => decryptPush(Buffer.from(r.body), browser))).toEqual(
      Array.from({ length: 9 }, (_, i) => `{"n":${i}}`),
    );
    // Every message has a sender key of its own (RFC 8291), prepared or not.
    expect(new Set(sealed.map((r) => senderKeyOf(r.body))).size).toBe(9);
    expect(sealed[0]!.headers).toMatchObject({
      'content-encoding': 'aes128gcm',
      'content-length': String(sealed[0]!.body.length),
    });
    expect(sealer.reserves()).toEqual({ browsers: 1, keys: 0 });
  });

  it('seals a payload over one record whole, keeping the prepared keys', async () => {
    sealer = createPushSealer(1, NO_REFILL);
    const browser = browserPushKeys();
    sealer.prepare([keysOf(browser)]);
    await waitFor(() => sealer!.reserves().keys === 8, 'the browser reserve of 8 keys');
    const large = `"${'a'.repeat(PREPARED_PAYLOAD_MAX)}"`;
    const sealed = await sealer.seal(job(keysOf(browser), large));
    expect(sealed.prepared).toBe(false);
    expect(sealed.body.length).toBeGreaterThan(86 + 4096);
    expect(sealer.reserves().keys).toBe(8);
  });

  it('refills a reserve once nothing has been sealed for a while', async () => {
    sealer = createPushSealer(1, { keysPerBrowser: 4, keysInAll: 64, quietMs: 50 });
    const browser = browserPushKeys();
    const first = await sealer.seal(job(keysOf(browser), '{"n":1}'));
    // A browser first met in a push has nothing prepared; its reserve fills after the push.
    expect(first.prepared).toBe(false);
    await waitFor(() => sealer!.reserves().keys === 4, 'the reserve refilled to 4 keys');
    const second = await sealer.seal(job(keysOf(browser), '{"n":2}'));
    expect(second.prepared).toBe(true);
    expect(decryptPush(Buffer.from(second.body), browser)).toBe('{"n":2}');
    await waitFor(() => sealer!.reserves().keys === 4, 'the reserve refilled again');
  });

  it('shares its keys among browsers; the least recently used gives its reserve up', async () => {
    sealer = createPushSealer(1, { keysPerBrowser: 8, keysInAll: 4, quietMs: 60_000 });
    const browsers = Array.from({ length: 6 }, () => browserPushKeys());
    sealer.prepare(browsers.map(keysOf));
    // Four browsers fit, a key each; the two named first gave theirs up.
    await waitFor(() => sealer!.reserves().keys === 4, 'a key for each of 4 browsers');
    expect(sealer.reserves()).toEqual({ browsers: 4, keys: 4 });
    const dropped = await sealer.seal(job(keysOf(browsers[0]!), '{"dropped":true}'));
    expect(dropped.prepared).toBe(false);
    expect(decryptPush(Buffer.from(dropped.body), browsers[0]!)).toBe('{"dropped":true}');
    const kept = await sealer.seal(job(keysOf(browsers[5]!), '{"kept":true}'));
    expect(kept.prepared).toBe(true);
    expect(decryptPush(Buffer.from(kept.body), browsers[5]!)).toBe('{"kept":true}');
    expect(sealer.reserves().browsers).toBe(4);
  });

  it('prepares nothing for keys that are not a browser key, and goes on preparing the others', async () => {
    sealer = createPushSealer(1, NO_REFILL);
    const browser = browserPushKeys();
    // 65 bytes, but not a point on the curve.
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const auth = keysOf(browser).auth;
    sealer.prepare([
      { p256dh: 'short', auth },
      { p256dh: offCurve.toString('base64url'), auth },
      keysOf(browser),
    ]);
    await waitFor(() => sealer!.reserves().keys === 8, "the browser's 8 keys");
    // The two that are not browser keys have no reserve.
    await waitFor(() => sealer!.reserves().browsers === 1, 'one reserve left');
    expect((await sealer.seal(job(keysOf(browser), '{}'))).prepared).toBe(true);
    await expect(sealer.seal(job({ p256dh: offCurve.toString('base64url'), auth }, '{}'))).rejects.toThrow();
  });
});
