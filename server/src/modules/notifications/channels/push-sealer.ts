import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { notificationMessages } from '@resort/shared';
import { PREPARED_KEY_BYTES, PREPARED_PAYLOAD_MAX, sealPrepared } from './push-seal.ts';

/** A browser's subscription keys, as the subscription gives them (base64url). */
export interface BrowserKeys {
  p256dh: string;
  auth: string;
}

/** One push a thread seals whole (no key prepared for it): the subscription and the payload. */
export interface SealJob {
  kind: 'seal';
  id: number;
  keys: BrowserKeys;
  payload: string;
}

/** Keys to prepare for browsers, `count` each (push-seal.worker.ts). */
export interface PrepareJob {
  kind: 'prepare';
  browsers: (BrowserKeys & { count: number })[];
}

export type ThreadJob = SealJob | PrepareJob;

/** The jobs posted to a thread in one turn of the event loop, as one message. */
export type ThreadJobs = ThreadJob[];

/** A push's encrypted body, or why it could not be sealed. */
export type SealReply =
  | { id: number; ok: true; body: Uint8Array }
  | { id: number; ok: false; message: string };

/** Keys prepared for a browser (PREPARED_KEY_BYTES each), or null when its keys are not a browser's. */
export interface PreparedReply {
  prepared: BrowserKeys & { keys: Uint8Array | null };
}

/** A thread's answers to one message of jobs, or keys it prepared, as one message. */
export type ThreadReplies = (SealReply | PreparedReply)[];

/** A thread's first message: its modules are loaded and it takes jobs. */
export interface ThreadReady {
  ready: true;
}

/** How much the sealer keeps prepared. */
export interface ReserveLimits {
  /** Keys prepared for one browser: a burst to it up to this size is sealed without asymmetric work. */
  keysPerBrowser: number;
  /** Keys kept in all (109 bytes each); browsers share them evenly, at least one each. */
  keysInAll: number;
  /** How long the sealer must have sealed nothing before it has keys prepared, so that stays out of bursts. */
  quietMs: number;
}

export const defaultReserveLimits: ReserveLimits = {
  keysPerBrowser: 1024,
  keysInAll: 16_384,
  quietMs: 1000,
};

/** What the push carries: the subscription's endpoint and the request's headers. */
export interface PushRequest {
  endpoint: string;
  authorization: string;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
}

/** A sealed push request (method, endpoint, headers, encrypted body). */
export interface SealedPush {
  endpoint: string;
  method: 'POST';
  headers: Record<string, string>;
  body: Uint8Array;
  /** Whether the message was sealed with a key prepared ahead. */
  prepared: boolean;
}

/** What the sealer holds ahead: browsers with a reserve, and the keys in them. */
export interface ReserveCount {
  browsers: number;
  keys: number;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Resolved once the thread has loaded its modules and takes jobs; rejected if it dies first. */
  ready: Promise<void>;
  /** Jobs waiting for the end of this turn of the event loop, to be posted as one message. */
  outbox: ThreadJobs;
}

interface Pending {
  resolve: (body: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Reserve extends BrowserKeys {
  /** `count` prepared keys of PREPARED_KEY_BYTES each. */
  keys: Buffer;
  count: number;
  /** Keys asked of a thread and not yet received. */
  asked: number;
}

/** The thread a browser's jobs go to. */
function slotOf(p256dh: string, threads: number): number {
  let h = 0;
  for (let i = 0; i < p256dh.length; i++) h = (h * 31 + p256dh.charCodeAt(i)) | 0;
  return (h >>> 0) % threads;
}

/** The request as the `web-push` library builds it for aes128gcm (RFC 8030 and RFC 8291). */
function requestOf(push: PushRequest, body: Uint8Array, prepared: boolean): SealedPush {
  return {
    endpoint: push.endpoint,
    method: 'POST',
    headers: {
      ttl: String(push.ttlSeconds),
      'content-length': String(body.length),
      'content-type': 'application/octet-stream',
      'content-encoding': 'aes128gcm',
      authorization: push.authorization,
      urgency: push.urgency,
    },
    body,
    prepared,
  };
}

/**
 * Seals Web Push requests (push-seal.ts). A message needs a fresh ECDH key pair, its secret with the
 * browser's key and the keys derived from it (RFC 8291): about 0.15 ms of CPU, where the encryption
 * itself costs a few microseconds. So the sealer keeps, per browser, a reserve of keys prepared in
 * worker threads (push-seal.worker.ts) once it has sealed nothing for `quietMs`, and seals a push
 * with one on the delivery worker's event loop: a burst pays only the encryption and never waits on
 * a thread. A push with no key ready (a browser first met, a burst past its reserve, a payload over
 * one record) is sealed whole in a thread by the `http_ece` library. Each key serves one message and
 * is wiped once used; reserves live in memory only, the least recently used browser giving its up
 * past `keysInAll`. Threads are unref'd; one that dies fails its pending pushes (they are retried as
 * any failed send) and is replaced on the next job. `start()` starts them ahead of the first push;
 * `prepare()` names the browsers to prepare keys for before their first push.
 */
export function createPushSealer(
  threads = Math.max(1, Math.min(4, availableParallelism() - 1)),
  limits: ReserveLimits = defaultReserveLimits,
) {
  const pool: (Thread | undefined)[] = [];
  let nextId = 0;
  const reserves = new Map<string, Reserve>();
  /** Reserves below their share since the last refill. */
  const wanting = new Set<Reserve>();
  let lastSealAt = Number.NEGATIVE_INFINITY;
  let refillTimer: NodeJS.Timeout | null = null;

  const keyOf = (b: BrowserKeys) => `${b.p256dh} ${b.auth}`;

  /** Each browser's share of the keys. */
  function share(): number {
    return Math.max(1, Math.min(limits.keysPerBrowser, Math.floor(limits.keysInAll / reserves.size)));
  }

  /** The browser's reserve, made most recently used; past the limit the least recently used goes. */
  function reserveOf(browser: BrowserKeys): Reserve {
    const key = keyOf(browser);
    let reserve = reserves.get(key);
    if (reserve) reserves.delete(key);
    else reserve = { p256dh: browser.p256dh, auth: browser.auth, keys: Buffer.alloc(0), count: 0, asked: 0 };
    reserves.set(key, reserve);
    while (reserves.size > limits.keysInAll) {
      const [oldest, dropped] = reserves.entries().next().value as [string, Reserve];
      drop(oldest, dropped);
    }
    return reserve;
  }

  function drop(key: string, reserve: Reserve): void {
    reserves.delete(key);
    wanting.delete(reserve);
    reserve.keys.fill(0);
    reserve.count = 0;
  }

  function wantRefill(reserve: Reserve): void {
    wanting.add(reserve);
    if (refillTimer === null)
      refillTimer = setTimeout(
        refill,
        Math.max(0, limits.quietMs - (performance.now() - lastSealAt)),
      ).unref();
  }

  /** Once nothing has been sealed for `quietMs`, asks the threads for the keys the reserves lack. */
  function refill(): void {
    refillTimer = null;
    const quietFor = performance.now() - lastSealAt;
    if (quietFor < limits.quietMs) {
      refillTimer = setTimeout(refill, limits.quietMs - quietFor).unref();
      return;
    }
    const target = share();
    const bySlot = new Map<number, PrepareJob['browsers']>();
    for (const reserve of wanting) {
      const count = target - reserve.count - reserve.asked;
      if (count <= 0) continue;
      reserve.asked += count;
      const slot = slotOf(reserve.p256dh, threads);
      const browsers = bySlot.get(slot) ?? [];
      if (browsers.length === 0) bySlot.set(slot, browsers);
      browsers.push({ p256dh: reserve.p256dh, auth: reserve.auth, count });
    }
    wanting.clear();
    for (const [slot, browsers] of bySlot) post(pool[slot] ?? spawn(slot), { kind: 'prepare', browsers });
  }

  /** Keys a thread prepared: into the browser's reserve, up to its share. */
  function received({ p256dh, auth, keys }: PreparedReply['prepared']): void {
    const key = keyOf({ p256dh, auth });
    const reserve = reserves.get(key);
    const bytes = keys ? Buffer.from(keys.buffer, keys.byteOffset, keys.length) : null;
    if (!reserve) {
      bytes?.fill(0);
      return;
    }
    if (!bytes) {
      // Not a browser's keys: its pushes are sealed whole, and fail with the library's reason.
      drop(key, reserve);
      return;
    }
    const count = bytes.length / PREPARED_KEY_BYTES;
    reserve.asked = Math.max(0, reserve.asked - count);
    const target = share();
    const room = Math.max(0, target - reserve.count);
    if (reserve.keys.length < target * PREPARED_KEY_BYTES) {
      const grown = Buffer.alloc(target * PREPARED_KEY_BYTES);
      reserve.keys.copy(grown, 0, 0, reserve.count * PREPARED_KEY_BYTES);
      reserve.keys.fill(0);
      reserve.keys = grown;
    }
    const taken = Math.min(room, count);
    bytes.copy(reserve.keys, reserve.count * PREPARED_KEY_BYTES, 0, taken * PREPARED_KEY_BYTES);
    reserve.count += taken;
    bytes.fill(0);
  }

  function spawn(slot: number) {
    const worker = new Worker(new URL('./push-seal.worker.ts', import.meta.url));
    worker.unref();
    let running!: () => void;
    let died!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      running = resolve;
      died = reject;
    });
    // Awaited only by start(); a thread that dies before running fails its pushes instead.
    ready.catch(() => {});
    const entry: Thread = { worker, pending: new Map(), ready, outbox: [] };
    const fail = (error: Error) => {
      died(error);
      if (pool[slot] === entry) pool[slot] = undefined;
      for (const p of entry.pending.values()) p.reject(error);
      entry.pending.clear();
      // What it was preparing will not come: asked again at the next refill.
      for (const reserve of reserves.values()) {
        if (reserve.asked > 0 && slotOf(reserve.p256dh, threads) === slot) {
          reserve.asked = 0;
          wanting.add(reserve);
        }
      }
    };
    worker.on('message', (replies: ThreadReplies | ThreadReady) => {
      if ('ready' in replies) return running();
      for (const reply of replies) {
        if ('prepared' in reply) {
          received(reply.prepared);
          continue;
        }
        const p = entry.pending.get(reply.id);
        if (!p) continue;
        entry.pending.delete(reply.id);
        if (reply.ok) p.resolve(reply.body);
        else p.reject(new Error(reply.message));
      }
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(notificationMessages.pushSealerStopped(code))));
    pool[slot] = entry;
    return entry;
  }

  /**
   * Posts a job with the others of this turn of the event loop: each message wakes the thread, so
   * jobs go a batch a message.
   */
  function post(entry: Thread, job: ThreadJob): void {
    entry.outbox.push(job);
    if (entry.outbox.length > 1) return;
    setImmediate(() => {
      const jobs = entry.outbox;
      entry.outbox = [];
      entry.worker.postMessage(jobs);
    });
  }

  return {
    /** Starts every thread not running yet; resolves once each has loaded its modules. */
    async start(): Promise<void> {
      for (let slot = 0; slot < threads; slot++) if (!pool[slot]) spawn(slot);
      await Promise.all(pool.map((t) => t?.ready));
    },
    /** Threads running or starting. */
    threads(): number {
      return pool.filter((t) => t !== undefined).length;
    },
    /**
     * Has keys prepared for each browser (most recently subscribed last: past the limit, the
     * browsers named first are the first to give theirs up).
     */
    prepare(browsers: readonly BrowserKeys[]): void {
      for (const browser of browsers) wantRefill(reserveOf(browser));
    },
    /** The browsers with a reserve and the keys prepared in them. */
    reserves(): ReserveCount {
      let keys = 0;
      for (const r of reserves.values()) keys += r.count;
      return { browsers: reserves.size, keys };
    },
    async seal(push: PushRequest & { keys: BrowserKeys; payload: string }): Promise<SealedPush> {
      const payload = Buffer.from(push.payload);
      const reserve = reserveOf(push.keys);
      lastSealAt = performance.now();
      wantRefill(reserve);
      if (reserve.count > 0 && payload.length <= PREPARED_PAYLOAD_MAX) {
        reserve.count--;
        const key = reserve.keys.subarray(
          reserve.count * PREPARED_KEY_BYTES,
          (reserve.count + 1) * PREPARED_KEY_BYTES,
        );
        try {
          return requestOf(push, sealPrepared(payload, key), true);
        } finally {
          key.fill(0);
        }
      }
      const slot = slotOf(push.keys.p256dh, threads);
      const entry = pool[slot] ?? spawn(slot);
      const id = nextId++;
      const body = await new Promise<Uint8Array>((resolve, reject) => {
        entry.pending.set(id, { resolve, reject });
        post(entry, { kind: 'seal', id, keys: push.keys, payload: push.payload });
      });
      return requestOf(push, body, false);
    },
    /** Stops the threads (pushes still sealing in them fail) and wipes the reserves. */
    async close(): Promise<void> {
      if (refillTimer) clearTimeout(refillTimer);
      refillTimer = null;
      for (const [key, reserve] of reserves) drop(key, reserve);
      const running = pool.filter((t): t is Thread => t !== undefined);
      pool.length = 0;
      await Promise.all(running.map((t) => t.worker.terminate()));
    },
  };
}

export type PushSealer = ReturnType<typeof createPushSealer>;
