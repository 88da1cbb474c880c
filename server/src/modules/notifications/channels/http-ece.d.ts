/**
 * The encrypted content coding library (RFC 8188, with RFC 8291's key derivation for Web Push) has
 * no types of its own: the part of its README's API the push sealer uses.
 */
declare module 'http_ece' {
  /** What the encryption needs of the sender's ECDH key: crypto.createECDH()'s two methods. */
  export interface SenderKey {
    getPublicKey(): Buffer;
    computeSecret(receiverPublicKey: Buffer): Buffer;
  }
  export interface EncryptParams {
    version: 'aes128gcm';
    /** The receiver's public key (uncompressed P-256 point). */
    dh: Buffer | string;
    /** The receiver's auth secret. */
    authSecret: Buffer | string;
    privateKey: SenderKey;
    /** 16 random bytes; generated when absent. */
    salt?: Buffer | string;
  }
  export function encrypt(buffer: Buffer, params: EncryptParams): Buffer;
  const ece: { encrypt: typeof encrypt };
  export default ece;
}
