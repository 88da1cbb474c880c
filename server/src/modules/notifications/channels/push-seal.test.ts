import { randomBytes } from 'node:crypto';
import ece from 'http_ece';
import { describe, expect, it } from 'vitest';
import { browserPushKeys, decryptPush } from '../../../../test/helpers/web-push-decrypt.ts';
import {
  browserKeyOf,
  encryptPush,
  makeSenderKey,
  messageKeyFrom,
  PREPARED_KEY_BYTES,
  PREPARED_PAYLOAD_MAX,
  prepareMessageKey,
  SENDER_KEY_BYTES,
  sealPrepared,
} from './push-seal.ts';

describe('push seal', () => {
  it('seals with a prepared key exactly what http_ece makes of the same sender key and salt', () => {
    for (const size of [0, 1, 265, 1000, PREPARED_PAYLOAD_MAX]) {
      const browser = browserPushKeys();
      const browserKey = browserKeyOf(browser.p256dh);
      const payload = randomBytes(size);
      const senderKey = Buffer.alloc(SENDER_KEY_BYTES);
      makeSenderKey(browserKey, senderKey);
      const prepared = Buffer.alloc(PREPARED_KEY_BYTES);
      messageKeyFrom(senderKey, browserKey, browser.auth, prepared);
      const salt = prepared.subarray(0, 16);
      const byLibrary = ece.encrypt(payload, {
        version: 'aes128gcm',
        dh: browserKey,
        authSecret: browser.auth,
        salt: Buffer.from(salt),
        privateKey: {
          getPublicKey: () => senderKey.subarray(0, 65),
          computeSecret: () => senderKey.subarray(65),
        },
      });
      expect(sealPrepared(payload, prepared).equals(byLibrary)).toBe(true);
    }
  });

  it('seals what the browser decrypts, a sender key and salt of its own each message', () => {
    const browser = browserPushKeys();
    const browserKey = browserKeyOf(browser.p256dh);
    const keys = Buffer.alloc(2 * PREPARED_KEY_BYTES);
    prepareMessageKey(browserKey, browser.auth, keys, 0);
    prepareMessageKey(browserKey, browser.auth, keys, PREPARED_KEY_BYTES);
    const first = sealPrepared(Buffer.from('{"n":1}'), keys.subarray(0, PREPARED_KEY_BYTES));
    const second = sealPrepared(Buffer.from('{"n":2}'), keys.subarray(PREPARED_KEY_BYTES));
    expect(decryptPush(first, browser)).toBe('{"n":1}');
    expect(decryptPush(second, browser)).toBe('{"n":2}');
    // salt (16 bytes), record size, key id length, key id (the sender's public key)
    expect(first.subarray(0, 16).equals(second.subarray(0, 16))).toBe(false);
    expect(first.subarray(21, 86).equals(second.subarray(21, 86))).toBe(false);
    expect(first.readUInt32BE(16)).toBe(4096);
    expect(first[20]).toBe(65);
  });

  it('leaves a payload larger than one record to the library, which seals it in several', () => {
    const browser = browserPushKeys();
    const browserKey = browserKeyOf(browser.p256dh);
    const prepared = Buffer.alloc(PREPARED_KEY_BYTES);
    prepareMessageKey(browserKey, browser.auth, prepared);
    const large = Buffer.alloc(PREPARED_PAYLOAD_MAX + 1, 'a');
    expect(() => sealPrepared(large, prepared)).toThrow(/one record/);
    const senderKey = Buffer.alloc(SENDER_KEY_BYTES);
    makeSenderKey(browserKey, senderKey);
    const sealed = encryptPush(large.toString(), browserKey, browser.auth, senderKey);
    // Two records: more than one record's size after the header.
    expect(sealed.length).toBeGreaterThan(86 + 4096);
  });
});
