import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { notificationMessages } from '@resort/shared';

/** One push to seal: the subscription, the payload and the headers the request carries. */
export interface SealJob {
  kind: 'seal';
  id: number;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: string;
  authorization: string;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
}

/** Browsers (their p256dh keys) whose key reserves a thread prepares while it has nothing to seal. */
export interface PrepareJob {
  kind: 'prepare';
  browsers: string[];
}

/** Asks a thread how many browsers it keeps reserves for and how many keys they hold. */
export interface CountJob {
  kind: 'count';
  id: number;
}

export type ThreadJob = SealJob | PrepareJob | CountJob;

/** The jobs posted to a thread in one turn of the event loop, as one message. */
export type ThreadJobs = ThreadJob[];

/** A sealed push request (method, endpoint, headers, encrypted body), or why it could not be built. */
export type SealReply =
  | {
      id: number;
      ok: true;
      endpoint: string;
      method: string;
      headers: Record<string, string>;
      body: Uint8Array | null;
      /** Whether the message's ECDH key came from the browser's reserve (prepared ahead). */
      prepared: boolean;
    }
  | { id: number; ok: false; message: string };

/** What a thread holds ahead: browsers with a reserve, and the keys in them. */
export interface ReserveCount {
  browsers: number;
  keys: number;
}

export interface CountReply {
  id: number;
  count: ReserveCount;
}

/** A thread's answers to one message of jobs, as one message. */
export type ThreadReplies = (SealReply | CountReply)[];

/** A thread's first message: its modules are loaded and it takes pushes. */
export interface ThreadReady {
  ready: true;
}

/** How much a thread prepares ahead (push-seal.worker.ts), given to it as its workerData. */
export interface ReserveLimits {
  /** Keys prepared for one browser: a burst to it up to this size pays no ECDH. */
  keysPerBrowser: number;
  /** Keys one thread keeps in all (97 bytes each); browsers share them evenly, at least one each. */
  keysPerThread: number;
  /** How long a thread must have sealed nothing before it refills, so refills stay out of bursts. */
  quietMs: number;
}

export const defaultReserveLimits: ReserveLimits = {
  keysPerBrowser: 1024,
  keysPerThread: 16_384,
  quietMs: 1000,
};

export type SealedPush = Omit<Extract<SealReply, { ok: true }>, 'id' | 'ok'>;

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Resolved once the thread has loaded its modules and takes pushes; rejected if it dies first. */
  ready: Promise<void>;
  /** Jobs waiting for the end of this turn of the event loop, to be posted as one message. */
  outbox: ThreadJobs;
}

interface Pending {
  resolve: (reply: SealedPush | ReserveCount) => void;
  reject: (error: Error) => void;
}

/** The thread a browser's pushes go to, so its reserve lives in one thread. */
function slotOf(p256dh: string, threads: number): number {
  let h = 0;
  for (let i = 0; i < p256dh.length; i++) h = (h * 31 + p256dh.charCodeAt(i)) | 0;
  return (h >>> 0) % threads;
}

/**
 * Seals Web Push requests in worker threads (push-seal.worker.ts). Encrypting a push needs a fresh
 * ECDH key pair and its secret with the browser's key (RFC 8291), about 0.15 ms of CPU, and the
 * symmetric encryption, about 0.08 ms. Each thread keeps, per browser, a reserve of key pairs with
 * their secrets, prepared while it has nothing to seal, so a burst pays only the symmetric part; a
 * key is used for one message and wiped. A browser's pushes all go to one thread, which holds its
 * reserve. Threads start on the first push and are unref'd; one that dies fails its pending pushes
 * (they are retried as any failed send) and is replaced on the next push. `start()` starts them
 * ahead of the first push, so a burst does not wait for a thread to load its modules; `prepare()`
 * names the browsers to prepare keys for before their first push.
 */
export function createPushSealer(
  threads = Math.max(1, Math.min(4, availableParallelism() - 1)),
  limits: ReserveLimits = defaultReserveLimits,
) {
  const pool: (Thread | undefined)[] = [];
  let nextId = 0;

  function spawn(slot: number) {
    const worker = new Worker(new URL('./push-seal.worker.ts', import.meta.url), { workerData: limits });
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
    };
    worker.on('message', (replies: ThreadReplies | ThreadReady) => {
      if ('ready' in replies) return running();
      for (const reply of replies) {
        const p = entry.pending.get(reply.id);
        if (!p) continue;
        entry.pending.delete(reply.id);
        if ('count' in reply) p.resolve(reply.count);
        else if (reply.ok) {
          const { id: _id, ok: _ok, ...sealed } = reply;
          p.resolve(sealed);
        } else p.reject(new Error(reply.message));
      }
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(notificationMessages.pushSealerStopped(code))));
    pool[slot] = entry;
    return entry;
  }

  /**
   * Posts a job with the others of this turn of the event loop: a message to a thread costs the
   * delivery worker about 0.1 ms whatever it carries, so a burst's pushes go a batch a message.
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

  function ask<T extends SealedPush | ReserveCount>(entry: Thread, job: SealJob | CountJob): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      entry.pending.set(job.id, { resolve: resolve as Pending['resolve'], reject });
      post(entry, job);
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
     * Has each browser's thread prepare its reserve of keys (most recently subscribed last: when
     * the reserves are full, the browsers named first are the first to give theirs up).
     */
    prepare(browsers: readonly string[]): void {
      const bySlot = new Map<number, string[]>();
      for (const p256dh of browsers) {
        const slot = slotOf(p256dh, threads);
        bySlot.set(slot, [...(bySlot.get(slot) ?? []), p256dh]);
      }
      for (const [slot, list] of bySlot) {
        post(pool[slot] ?? spawn(slot), { kind: 'prepare', browsers: list });
      }
    },
    /** The browsers with a reserve and the keys prepared, over the running threads. */
    async reserves(): Promise<ReserveCount> {
      const counts = await Promise.all(
        pool
          .filter((t): t is Thread => t !== undefined)
          .map((t) => ask<ReserveCount>(t, { kind: 'count', id: nextId++ })),
      );
      return {
        browsers: counts.reduce((n, c) => n + c.browsers, 0),
        keys: counts.reduce((n, c) => n + c.keys, 0),
      };
    },
    seal(job: Omit<SealJob, 'id' | 'kind'>): Promise<SealedPush> {
      const slot = slotOf(job.subscription.keys.p256dh, threads);
      const entry = pool[slot] ?? spawn(slot);
      return ask<SealedPush>(entry, { ...job, kind: 'seal', id: nextId++ });
    },
    /** Stops the threads; pushes still sealing fail. */
    async close(): Promise<void> {
      const threads = pool.filter((t): t is Thread => t !== undefined);
      pool.length = 0;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

export type PushSealer = ReturnType<typeof createPushSealer>;
