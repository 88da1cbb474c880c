/**
 * Request coalescing: alerts whose built requests are identical share one upstream
 * fetch. A fetch is shared while it runs and for `windowMs` after it settles; its answer is then
 * dropped, so memory holds only the last window's answers. A consumer (an alert) never takes the
 * same answer twice: its next poll always fetches afresh or joins a newer fetch.
 */
export function createCoalescer<T>(options: { windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  type Entry = { promise: Promise<T>; settledAt: number | null; consumers: Set<string> };
  const entries = new Map<string, Entry>();
  /** Settled entries in the order they settled, with when each goes (monotonic clock): dropped from the front. */
  const settled: { key: string; entry: Entry; dropAt: number }[] = [];
  // One timer for the oldest settled entry, not one per fetch: at thousands of fetches a second a
  // timer each was a Timeout and a closure per poll, kept for the whole window.
  let timer: NodeJS.Timeout | null = null;
  let shared = 0;

  /** Forgets a settled fetch, unless a newer one for the same key took its place. */
  function forget(key: string, entry: Entry) {
    if (entries.get(key) === entry) entries.delete(key);
  }

  function dropExpired() {
    timer = null;
    const at = performance.now();
    let n = 0;
    while (n < settled.length && settled[n]!.dropAt <= at) {
      const { key, entry } = settled[n++]!;
      forget(key, entry);
    }
    settled.splice(0, n);
    arm();
  }

  function arm() {
    if (timer || settled.length === 0) return;
    timer = setTimeout(dropExpired, Math.max(settled[0]!.dropAt - performance.now(), 0)).unref();
  }

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
      const entry: Entry = { promise: fetch(), settledAt: null, consumers: new Set([consumer]) };
      entries.set(key, entry);
      const settle = () => {
        entry.settledAt = now();
        if (options.windowMs <= 0) return forget(key, entry);
        settled.push({ key, entry, dropAt: performance.now() + options.windowMs });
        arm();
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
