import type { ProxyTarget } from '../platform/outbound/outbound-client.ts';

export interface RotatingProxy extends ProxyTarget {
  id: string;
}

/**
 * Round-robin over the active proxies. The list is re-read with each claimed batch (`refresh`, before
 * its polls are dispatched), so a change to the pool carries the next poll; also every `refreshMs`
 * and at once after a proxy is switched off. With no active proxy, requests go direct (null).
 */
export function createProxyRotation(options: {
  listActive: () => Promise<RotatingProxy[]>;
  refreshMs: number;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  let proxies: RotatingProxy[] = [];
  let loadedAt = -Infinity;
  let loading: Promise<void> | null = null;
  let cursor = 0;

  async function refresh() {
    loading ??= options
      .listActive()
      .then((list) => {
        proxies = list;
        loadedAt = now();
      })
      .finally(() => {
        loading = null;
      });
    await loading;
  }

  return {
    /** Re-reads the pool now; on failure the list read before stays (and the failure is thrown). */
    refresh,
    async next(): Promise<RotatingProxy | null> {
      if (now() - loadedAt > options.refreshMs) await refresh();
      if (proxies.length === 0) return null;
      cursor = (cursor + 1) % proxies.length;
      return proxies[cursor]!;
    },
    /** A proxy was disabled: drop it now and re-read the list on the next request. */
    invalidate(proxyId: string) {
      proxies = proxies.filter((p) => p.id !== proxyId);
      loadedAt = -Infinity;
    },
  };
}

export type ProxyRotation = ReturnType<typeof createProxyRotation>;
