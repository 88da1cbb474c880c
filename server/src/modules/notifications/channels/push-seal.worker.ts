/**
 * A thread of the push sealer (push-sealer.ts). It prepares message keys for browsers (a fresh ECDH
 * key pair, its secret with the browser's key, and the salt, content key and nonce derived from
 * them: push-seal.ts), a slice at a time so a whole seal asked meanwhile is not held up, and posts
 * each slice back; and it seals whole, with the `http_ece` library, a push the sealer had no key
 * prepared for. Runs beside the delivery worker's event loop, which also runs the engine.
 */
import { parentPort } from 'node:worker_threads';
import {
  authSecretOf,
  browserKeyOf,
  encryptPush,
  makeSenderKey,
  PREPARED_KEY_BYTES,
  prepareMessageKey,
  SENDER_KEY_BYTES,
} from './push-seal.ts';
import type {
  PrepareJob,
  SealJob,
  SealReply,
  ThreadJobs,
  ThreadReady,
  ThreadReplies,
} from './push-sealer.ts';

/**
 * Node 24's crypto tells a key object from a Buffer by catching a thrown TypeError, twice for each
 * HMAC keyed with a Buffer, as the library's key derivation does several times a push. Building
 * those errors' stack traces cost nearly a third of a seal's CPU. This thread reports a failure by
 * its message alone, so its errors carry no stack trace.
 */
Error.stackTraceLimit = 0;

/** Keys prepared in one go before the thread looks at its messages again (about 2.5 ms of CPU). */
const SLICE = 16;

interface Work {
  p256dh: string;
  auth: string;
  browser: Buffer;
  authSecret: Buffer;
  left: number;
}

const queue: Work[] = [];
let working = false;

/** Prepares a slice of the first browser's keys and posts it, then yields to the messages. */
function work(): void {
  const next = queue[0];
  if (!next) {
    working = false;
    return;
  }
  const count = Math.min(SLICE, next.left);
  const keys = new Uint8Array(count * PREPARED_KEY_BYTES);
  const into = Buffer.from(keys.buffer);
  let reply: ThreadReplies[number];
  try {
    for (let i = 0; i < count; i++)
      prepareMessageKey(next.browser, next.authSecret, into, i * PREPARED_KEY_BYTES);
    next.left -= count;
    reply = { prepared: { p256dh: next.p256dh, auth: next.auth, keys } };
  } catch {
    // Not a point on the curve: nothing to prepare for it.
    next.left = 0;
    reply = { prepared: { p256dh: next.p256dh, auth: next.auth, keys: null } };
  }
  if (next.left <= 0) queue.shift();
  parentPort!.postMessage([reply] satisfies ThreadReplies, reply.prepared.keys ? [keys.buffer] : []);
  setImmediate(work);
}

function prepare(job: PrepareJob, replies: ThreadReplies): void {
  for (const { p256dh, auth, count } of job.browsers) {
    try {
      queue.push({
        p256dh,
        auth,
        browser: browserKeyOf(p256dh),
        authSecret: authSecretOf(auth),
        left: count,
      });
    } catch {
      replies.push({ prepared: { p256dh, auth, keys: null } });
    }
  }
  if (!working && queue.length > 0) {
    working = true;
    setImmediate(work);
  }
}

function seal(job: SealJob): SealReply {
  const senderKey = Buffer.allocUnsafe(SENDER_KEY_BYTES);
  try {
    const browser = browserKeyOf(job.keys.p256dh);
    const auth = authSecretOf(job.keys.auth);
    makeSenderKey(browser, senderKey);
    // A copy of its own: the library's Buffer may sit in Node's shared pool, which cannot move.
    return { id: job.id, ok: true, body: new Uint8Array(encryptPush(job.payload, browser, auth, senderKey)) };
  } catch (error) {
    return { id: job.id, ok: false, message: (error as Error).message ?? String(error) };
  } finally {
    senderKey.fill(0);
  }
}

parentPort!.on('message', (jobs: ThreadJobs) => {
  const replies: ThreadReplies = [];
  // The bodies' memory goes to the delivery worker rather than being copied.
  const transfer: ArrayBuffer[] = [];
  for (const job of jobs) {
    if (job.kind === 'prepare') prepare(job, replies);
    else {
      const reply = seal(job);
      replies.push(reply);
      if (reply.ok) transfer.push(reply.body.buffer as ArrayBuffer);
    }
  }
  if (replies.length > 0) parentPort!.postMessage(replies, transfer);
});

parentPort!.postMessage({ ready: true } satisfies ThreadReady);
