import { createHmac, createSecretKey, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 key
 * bytes; the signature is `v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  // Keyed with a KeyObject: Node 24 tells a Buffer key from a key object by throwing and catching two
  // errors with stack traces, which cost more than the HMAC itself (`npm run bench -- seal`).
  const digest = createHmac('sha256', createSecretKey(signingKey(secret)))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}

export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}
