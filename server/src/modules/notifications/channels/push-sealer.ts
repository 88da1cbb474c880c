import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { notificationMessages } from '@resort/shared';

/** One push to seal: the subscription, the payload and the headers the request carries. */
export interface SealJob {
  id: number;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: string;
  authorization: string;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
}

/** A sealed push request (method, endpoint, headers, encrypted body), or why it could not be built. */
export type SealReply =
  | {
      id: number;
      ok: true;
      endpoint: string;
      method: string;
      headers: Record<string, string>;
      body: Uint8Array | null;
    }
  | { id: number; ok: false; message: string };

/** A thread's first message: its modules are loaded and it takes pushes. */
export interface ThreadReady {
  ready: true;
}

export type SealedPush = Omit<Extract<SealReply, { ok: true }>, 'id' | 'ok'>;

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Resolved once the thread has loaded its modules and takes pushes; rejected if it dies first. */
  ready: Promise<void>;
}

interface Pending {
  resolve: (sealed: SealedPush) => void;
  reject: (error: Error) => void;
}

/**
 * Seals Web Push requests in worker threads (push-seal.worker.ts). Encrypting a push costs about
 * 0.3–0.5 ms of CPU (a fresh ECDH key and secret per message, RFC 8291): on the delivery worker's
 * event loop a burst of pushes would hold back every other channel's sends and receipts. Threads
 * start on the first push and are unref'd; one that dies fails its pending pushes (they are retried
 * as any failed send) and is replaced on the next push. `start()` starts them ahead of the first push,
 * so a burst does not wait for a thread to load its modules.
 */
export function createPushSealer(threads = Math.max(1, Math.min(4, availableParallelism() - 1))) {
  const pool: (Thread | undefined)[] = [];
  let nextId = 0;
  let turn = 0;

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
    const entry: Thread = { worker, pending: new Map(), ready };
    const fail = (error: Error) => {
      died(error);
      if (pool[slot] === entry) pool[slot] = undefined;
      for (const p of entry.pending.values()) p.reject(error);
      entry.pending.clear();
    };
    worker.on('message', (reply: SealReply | ThreadReady) => {
      if ('ready' in reply) return running();
      const p = entry.pending.get(reply.id);
      if (!p) return;
      entry.pending.delete(reply.id);
      if (reply.ok) {
        const { id: _id, ok: _ok, ...sealed } = reply;
        p.resolve(sealed);
      } else p.reject(new Error(reply.message));
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(notificationMessages.pushSealerStopped(code))));
    pool[slot] = entry;
    return entry;
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
    seal(job: Omit<SealJob, 'id'>): Promise<SealedPush> {
      const slot = turn++ % threads;
      const entry = pool[slot] ?? spawn(slot);
      const id = nextId++;
      return new Promise<SealedPush>((resolve, reject) => {
        entry.pending.set(id, { resolve, reject });
        entry.worker.postMessage({ ...job, id } satisfies SealJob);
      });
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
