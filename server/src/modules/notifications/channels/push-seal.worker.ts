/**
 * A thread of the push sealer (push-sealer.ts): encrypts each Web Push payload for its subscription
 * with the `http_ece` library (aes128gcm, RFC 8188, keys derived per RFC 8291) and hands back the
 * request's parts. Runs in a worker thread, so a burst of pushes encrypts beside the delivery
 * worker's event loop.
 *
 * A message needs a fresh ECDH key pair and its secret with the browser's key, the costly part of a
 * seal. The thread prepares them ahead: per browser, a reserve of keys (public key and secret, 97
 * bytes each), refilled once it has sealed nothing for `quietMs`, so a burst pays only the
 * symmetric encryption. Each key serves one message and is wiped once used; the reserves live in
 * this thread's memory only. Browsers are kept most recently used last; past the thread's budget
 * the least recently used gives up its reserve.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  authSecretOf,
  browserKeyOf,
  encryptPush,
  SENDER_KEY_BYTES as KEY_BYTES,
  makeSenderKey,
} from './push-seal.ts';
import type {
  ReserveLimits,
  SealJob,
  SealReply,
  ThreadJobs,
  ThreadReady,
  ThreadReplies,
} from './push-sealer.ts';

/**
 * Node 24's crypto tells a key object from a Buffer by catching a thrown TypeError, twice for each
 * HMAC keyed with a Buffer, as the encryption's key derivation does several times a push. Building
 * those errors' stack traces cost nearly a third of a seal's CPU. This thread reports a failure by
 * its message alone, so its errors carry no stack trace.
 */
Error.stackTraceLimit = 0;

const limits = workerData as ReserveLimits;
/** Keys made in one go before the thread looks at its messages again. */
const REFILL_SLICE = 16;

interface Reserve {
  browser: Buffer;
  /** `count` sender keys of KEY_BYTES each. */
  keys: Buffer;
  count: number;
}

const reserves = new Map<string, Reserve>();
/** Reserves below their share, in the order they fell below it. */
const wanting = new Set<Reserve>();
let lastSealAt = Number.NEGATIVE_INFINITY;
let refillTimer: NodeJS.Timeout | null = null;

/** Each browser's share of the thread's budget. */
function share(): number {
  return Math.max(1, Math.min(limits.keysPerBrowser, Math.floor(limits.keysPerThread / reserves.size)));
}

/** The browser's reserve, made most recently used; the least recently used go past the budget. */
function reserveOf(p256dh: string, browser: Buffer): Reserve {
  let reserve = reserves.get(p256dh);
  if (reserve) reserves.delete(p256dh);
  else reserve = { browser, keys: Buffer.alloc(0), count: 0 };
  reserves.set(p256dh, reserve);
  while (reserves.size > limits.keysPerThread) {
    const [oldest, dropped] = reserves.entries().next().value as [string, Reserve];
    reserves.delete(oldest);
    wanting.delete(dropped);
    dropped.keys.fill(0);
  }
  return reserve;
}

/** Refills the reserves below their share, a slice at a time, while no seal is asked for. */
function refill(): void {
  refillTimer = null;
  const quietFor = performance.now() - lastSealAt;
  if (quietFor < limits.quietMs) {
    refillTimer = setTimeout(refill, limits.quietMs - quietFor);
    return;
  }
  const reserve = wanting.values().next().value;
  if (!reserve) return;
  const target = share();
  if (reserve.keys.length !== target * KEY_BYTES) {
    const keys = Buffer.alloc(target * KEY_BYTES);
    reserve.count = Math.min(reserve.count, target);
    reserve.keys.copy(keys, 0, 0, reserve.count * KEY_BYTES);
    reserve.keys.fill(0);
    reserve.keys = keys;
  }
  try {
    for (let made = 0; made < REFILL_SLICE && reserve.count < target; made++) {
      makeSenderKey(reserve.browser, reserve.keys, reserve.count * KEY_BYTES);
      reserve.count++;
    }
  } catch {
    // Not a point on the curve: its pushes fail as they are sealed; nothing to prepare.
    reserve.count = 0;
    wanting.delete(reserve);
  }
  if (reserve.count >= target) wanting.delete(reserve);
  if (wanting.size > 0) refillTimer = setTimeout(refill, 0);
}

function wantRefill(reserve: Reserve): void {
  wanting.add(reserve);
  if (refillTimer === null)
    refillTimer = setTimeout(refill, Math.max(0, limits.quietMs - (performance.now() - lastSealAt)));
}

function seal(job: SealJob): SealReply {
  const browser = browserKeyOf(job.subscription.keys.p256dh);
  const auth = authSecretOf(job.subscription.keys.auth);
  const reserve = reserveOf(job.subscription.keys.p256dh, browser);
  let key: Buffer;
  const prepared = reserve.count > 0;
  if (prepared) {
    reserve.count--;
    key = reserve.keys.subarray(reserve.count * KEY_BYTES, (reserve.count + 1) * KEY_BYTES);
  } else {
    key = Buffer.allocUnsafe(KEY_BYTES);
    makeSenderKey(browser, key);
  }
  lastSealAt = performance.now();
  try {
    const body = encryptPush(job.payload, browser, auth, key);
    // The request as the `web-push` library builds it for aes128gcm (RFC 8030 and RFC 8291).
    const headers: Record<string, string> = {
      ttl: String(job.ttlSeconds),
      'content-length': String(body.length),
      'content-type': 'application/octet-stream',
      'content-encoding': 'aes128gcm',
      authorization: job.authorization,
      urgency: job.urgency,
    };
    return {
      id: job.id,
      ok: true,
      endpoint: job.subscription.endpoint,
      method: 'POST',
      headers,
      // A copy of its own: the library's Buffer may sit in Node's shared pool, which cannot move.
      body: new Uint8Array(body),
      prepared,
    };
  } finally {
    key.fill(0);
    wantRefill(reserve);
  }
}

parentPort!.on('message', (jobs: ThreadJobs) => {
  const replies: ThreadReplies = [];
  // The bodies' memory goes to the delivery worker rather than being copied.
  const transfer: ArrayBuffer[] = [];
  for (const job of jobs) {
    if (job.kind === 'prepare') {
      for (const p256dh of job.browsers) {
        try {
          wantRefill(reserveOf(p256dh, browserKeyOf(p256dh)));
        } catch {
          // A key that is not one: its pushes fail as they are sealed.
        }
      }
    } else if (job.kind === 'count') {
      let keys = 0;
      for (const r of reserves.values()) keys += r.count;
      replies.push({ id: job.id, count: { browsers: reserves.size, keys } });
    } else {
      try {
        const reply = seal(job);
        replies.push(reply);
        if (reply.ok && reply.body) transfer.push(reply.body.buffer as ArrayBuffer);
      } catch (error) {
        replies.push({ id: job.id, ok: false, message: (error as Error).message ?? String(error) });
      }
    }
  }
  if (replies.length > 0) parentPort!.postMessage(replies, transfer);
});

parentPort!.postMessage({ ready: true } satisfies ThreadReady);
