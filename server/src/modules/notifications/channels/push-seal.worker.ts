/**
 * A thread of the push sealer (push-sealer.ts): builds each Web Push request with the `web-push`
 * library, payload encrypted for the subscription per RFC 8291, and hands back its parts. Runs
 * in a worker thread, so a burst of pushes encrypts beside the delivery worker's event loop.
 */
import { parentPort } from 'node:worker_threads';
import webPush from 'web-push';
import type { SealJob, SealReply, ThreadReady } from './push-sealer.ts';

/**
 * Node 24's crypto tells a key object from a Buffer by catching a thrown TypeError, twice for each
 * HMAC keyed with a Buffer, as the encryption's key derivation does several times a push. Building
 * those errors' stack traces cost nearly a third of a seal's CPU. This thread reports a failure by
 * its message alone, so its errors carry no stack trace.
 */
Error.stackTraceLimit = 0;

parentPort!.on('message', (job: SealJob) => {
  let reply: SealReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const request = webPush.generateRequestDetails(job.subscription, job.payload, {
      headers: { Authorization: job.authorization },
      TTL: job.ttlSeconds,
      urgency: job.urgency,
      contentEncoding: 'aes128gcm',
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = String(value);
    const body = request.body ? new Uint8Array(request.body) : null;
    if (body) transfer = [body.buffer as ArrayBuffer];
    reply = { id: job.id, ok: true, endpoint: request.endpoint, method: request.method, headers, body };
  } catch (error) {
    reply = { id: job.id, ok: false, message: (error as Error).message ?? String(error) };
  }
  parentPort!.postMessage(reply, transfer);
});

parentPort!.postMessage({ ready: true } satisfies ThreadReady);
