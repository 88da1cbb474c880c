/**
 * Request coalescing: alerts whose built requests are identical share one upstream
 * fetch. A fetch is shared while it runs and for `windowMs` after it settles; its answer is then
 * dropped, so memory holds only the last window's answers. A consumer (an alert) never takes the
 * same answer twice: its next poll always fetches afresh or joins a newer fetch.
 */
export function createCoalescer<T>(options: { windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const entries = new Map<
    string,
    { promise: Promise<T>; settledAt: number | null; consumers: Set<string> }
  >();
  let shared = 0;

  return {
    share(key: string, consumer: string, fetch: () => Promise<T>): { promise: Promise<T>; shared: boolean } {
      const existing = entries.get(key);
      if (
        existing &&
        !existing.consumers.has(consumer) &&
        (existing.settledAt === null || now() - existing.settledAt <= options.windowMs)
      ) {
        shared++;
        existing.consumers.add(consumer);
        return { promise: existing.promise, shared: true };
      }
      const entry = { promise: fetch(), settledAt: null as number | null, consumers: new Set([consumer]) };
      entries.set(key, entry);
      const settle = () => {
        entry.settledAt = now();
        const drop = () => {
          if (entries.get(key) === entry) entries.delete(key);
        };
        if (options.windowMs <= 0) drop();
        else setTimeout(drop, options.windowMs).unref();
      };
      entry.promise.then(settle, settle);
      return { promise: entry.promise, shared: false };
    },

    figures() {
      return { entries: entries.size, shared };
    },
  };
}

export type Coalescer<T> = ReturnType<typeof createCoalescer<T>>;
