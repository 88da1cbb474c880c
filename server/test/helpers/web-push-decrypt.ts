import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from 'node:crypto';

/** A browser's side of a push subscription: its P-256 key pair and 16-byte auth secret. */
export interface BrowserPushKeys {
  ecdh: ECDH;
  /** The public key as PushSubscription.toJSON() gives it (base64url, uncompressed point). */
  p256dh: string;
  auth: Buffer;
}

export function browserPushKeys(): BrowserPushKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16) };
}

/**
 * Decrypts a Web Push message body as the browser does, written out from the RFCs rather than with
 * the server's library: RFC 8188's aes128gcm header (salt, record size, the server's key id) and one
 * record, with the key and nonce derived per RFC 8291 §3.4 from ECDH and the auth secret.
 * Throws when the body does not decrypt (a wrong key, a tampered body).
 */
export function decryptPush(body: Buffer, keys: BrowserPushKeys): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record has no 0x02 delimiter');
  return padded.subarray(0, end).toString('utf8');
}
