/**
 * The cryptography of sealing one Web Push message (RFC 8291, aes128gcm of RFC 8188), apart from the
 * push sealer's threads that hold the keys (push-seal.worker.ts): the sender key a message needs,
 * and the payload's encryption with one, by the `http_ece` library.
 */
import { createECDH } from 'node:crypto';
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
