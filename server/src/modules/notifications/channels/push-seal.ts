/// <reference path="./http-ece.d.ts" />
/**
 * The cryptography of sealing one Web Push message (RFC 8291, aes128gcm of RFC 8188), apart from the
 * push sealer that decides where and when it runs (push-sealer.ts). Two ways to the same bytes:
 * - `encryptPush`: the `http_ece` library encrypts with a fresh sender key (any payload size);
 * - `prepareMessageKey` (a sender key, then `messageKeyFrom`) ahead of the message, then
 *   `sealPrepared`: everything that does not depend on the payload (the sender key pair, its ECDH
 *   secret, the salt, the content key and nonce) is derived beforehand, so sealing is one AES-128-GCM
 *   record. Its output is `http_ece`'s to the byte for the same sender key and salt (push-seal.test.ts
 *   holds the two together).
 */
import { createCipheriv, createECDH, createSecretKey, hkdfSync, randomFillSync } from 'node:crypto';
import ece from 'http_ece';

const PUBLIC_KEY_BYTES = 65;
/** A sender key as kept: its public key (an uncompressed P-256 point), then its ECDH secret. */
export const SENDER_KEY_BYTES = PUBLIC_KEY_BYTES + 32;

/** The browser's public key (the subscription's p256dh), checked as the `web-push` library does. */
export function browserKeyOf(p256dh: unknown): Buffer {
  if (typeof p256dh !== 'string') throw new Error('The subscription p256dh value must be a string.');
  const key = Buffer.from(p256dh, 'base64url');
  if (key.length !== PUBLIC_KEY_BYTES)
    throw new Error('The subscription p256dh value should be 65 bytes long.');
  return key;
}

/** The subscription's auth secret, checked as the `web-push` library does. */
export function authSecretOf(auth: unknown): Buffer {
  if (typeof auth !== 'string') throw new Error('The subscription auth key must be a string.');
  const secret = Buffer.from(auth, 'base64url');
  if (secret.length < 16) throw new Error('The subscription auth key should be at least 16 bytes long.');
  return secret;
}

/**
 * A fresh sender key for one message to the browser: a new P-256 key pair's public key and its
 * ECDH secret with the browser's key, written into `into` at `offset` (SENDER_KEY_BYTES).
 * Throws when the browser's key is not a point on the curve.
 */
export function makeSenderKey(browser: Buffer, into: Buffer, offset = 0): void {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys().copy(into, offset);
  ecdh.computeSecret(browser).copy(into, offset + PUBLIC_KEY_BYTES);
}

/**
 * The encrypted body of one message (RFC 8188's header naming the sender key, then one record),
 * with the key and nonce derived per RFC 8291 from the sender key, the browser's key and its auth
 * secret. `senderKey` is one made by makeSenderKey for this browser, used for this message only.
 */
export function encryptPush(payload: string, browser: Buffer, auth: Buffer, senderKey: Buffer): Buffer {
  return ece.encrypt(Buffer.from(payload), {
    version: 'aes128gcm',
    dh: browser,
    authSecret: auth,
    // The library asks its ECDH object for these two; the secret was computed when the key was made.
    privateKey: {
      getPublicKey: () => senderKey.subarray(0, PUBLIC_KEY_BYTES),
      computeSecret: () => senderKey.subarray(PUBLIC_KEY_BYTES, SENDER_KEY_BYTES),
    },
  });
}

/** RFC 8188's record size as the `web-push` library sends it; a sealed payload fits one record. */
const RECORD_SIZE = 4096;
/** The delimiter after the last record's data, then the GCM tag. */
const RECORD_OVERHEAD = 1 + 16;
/** The largest payload `sealPrepared` seals (one record); a larger one goes through `encryptPush`. */
export const PREPARED_PAYLOAD_MAX = RECORD_SIZE - RECORD_OVERHEAD;

const SALT_BYTES = 16;
const CEK_BYTES = 16;
const NONCE_BYTES = 12;
/** A prepared message key as kept: the salt, the sender's public key, the content key and the nonce. */
export const PREPARED_KEY_BYTES = SALT_BYTES + PUBLIC_KEY_BYTES + CEK_BYTES + NONCE_BYTES;

const WEBPUSH_INFO = Buffer.from('WebPush: info\0');
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0');
/** The delimiter that ends the last record's data (RFC 8188 §2). */
const LAST_RECORD = Buffer.from([2]);

/**
 * What one message to the browser needs that does not depend on its payload, written into `into` at
 * `offset` (PREPARED_KEY_BYTES): a fresh sender key (makeSenderKey) and what messageKeyFrom derives
 * from it. Throws when the browser's key is not a point on the curve.
 */
export function prepareMessageKey(browser: Buffer, auth: Buffer, into: Buffer, offset = 0): void {
  const senderKey = Buffer.allocUnsafe(SENDER_KEY_BYTES);
  try {
    makeSenderKey(browser, senderKey);
    messageKeyFrom(senderKey, browser, auth, into, offset);
  } finally {
    senderKey.fill(0);
  }
}

/**
 * The message key of a sender key (from makeSenderKey, for this browser), written into `into` at
 * `offset` (PREPARED_KEY_BYTES): a random salt, the sender's public key, and the content key and
 * nonce per RFC 8291 §3.3–3.4 (the input key from HKDF over the ECDH secret with the auth secret,
 * then HKDF with the salt).
 */
export function messageKeyFrom(
  senderKey: Buffer,
  browser: Buffer,
  auth: Buffer,
  into: Buffer,
  offset = 0,
): void {
  const salt = into.subarray(offset, offset + SALT_BYTES);
  randomFillSync(salt);
  const publicKey = into.subarray(offset + SALT_BYTES, offset + SALT_BYTES + PUBLIC_KEY_BYTES);
  senderKey.copy(publicKey, 0, 0, PUBLIC_KEY_BYTES);
  const secret = senderKey.subarray(PUBLIC_KEY_BYTES, SENDER_KEY_BYTES);
  const info = Buffer.concat([WEBPUSH_INFO, browser, publicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, auth, info, 32));
  const at = offset + SALT_BYTES + PUBLIC_KEY_BYTES;
  into.set(new Uint8Array(hkdfSync('sha256', ikm, salt, CEK_INFO, CEK_BYTES)), at);
  into.set(new Uint8Array(hkdfSync('sha256', ikm, salt, NONCE_INFO, NONCE_BYTES)), at + CEK_BYTES);
  ikm.fill(0);
}

/**
 * The encrypted body of one message with a key from prepareMessageKey (used for this message only):
 * RFC 8188's header (the salt, the record size, the sender's public key as key id), then the payload
 * and the last record's delimiter 0x02 in one AES-128-GCM record with its tag. The payload is at most
 * PREPARED_PAYLOAD_MAX bytes.
 */
export function sealPrepared(payload: Buffer, prepared: Buffer): Buffer {
  if (payload.length > PREPARED_PAYLOAD_MAX) throw new Error('The payload does not fit one record.');
  const at = SALT_BYTES + PUBLIC_KEY_BYTES;
  // Keyed with a KeyObject: given a Buffer, Node 24 throws and catches an error to tell it from a key
  // object, and building its stack trace cost twice the encryption (about 12 µs on the event loop).
  const cipher = createCipheriv(
    'aes-128-gcm',
    createSecretKey(prepared.subarray(at, at + CEK_BYTES)),
    prepared.subarray(at + CEK_BYTES, at + CEK_BYTES + NONCE_BYTES),
  );
  const header = Buffer.allocUnsafe(SALT_BYTES + 5 + PUBLIC_KEY_BYTES);
  prepared.copy(header, 0, 0, SALT_BYTES);
  header.writeUInt32BE(RECORD_SIZE, SALT_BYTES);
  header.writeUInt8(PUBLIC_KEY_BYTES, SALT_BYTES + 4);
  prepared.copy(header, SALT_BYTES + 5, SALT_BYTES, SALT_BYTES + PUBLIC_KEY_BYTES);
  const data = cipher.update(payload);
  const delimiter = cipher.update(LAST_RECORD);
  cipher.final();
  return Buffer.concat([header, data, delimiter, cipher.getAuthTag()]);
}
