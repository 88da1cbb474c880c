/**
 * Remembers an answer for `ms`, so frequent health checks do not repeat the same scans; a failed read
 * is not kept.
 */
export function cachedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > ms) {
      const value = read();
      cached = { at: now, value };
      value.catch(() => {
        if (cached?.value === value) cached = null;
      });
    }
    return cached.value;
  };
}
