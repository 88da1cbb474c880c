/** One claimed alert waiting for its poll or its write-back. */
export interface PendingClaim {
  /** The claim's token; null for a reservation (kept by this worker's last write-back). */
  token: string | null;
  /** Local time the claim (or its lease) was last taken. */
  claimedAt: number;
  /** Fires the poll at its due time; null once started. */
  timer: NodeJS.Timeout | null;
}

/**
 * The claims this worker holds and has not yet written back, by alert id: the poll runner adds them,
 * the write-back settles them, the lease keeper renews the old ones and the claim loop claims only as
 * many more as there is room for.
 */
export function createPendingClaims() {
  const claims = new Map<string, PendingClaim>();
  /** When each claim was last settled (local epoch ms): a read begun before may see its row as it was. */
  const settledAt = new Map<string, number>();
  return {
    get size() {
      return claims.size;
    },
    has: (id: string): boolean => claims.has(id),
    add(id: string, token: string | null): PendingClaim {
      const claim: PendingClaim = { token, claimedAt: Date.now(), timer: null };
      claims.set(id, claim);
      return claim;
    },
    /** Forgets the claim when it is still the one with this token (a later claim stays). */
    settle(id: string, token: string | null): void {
      if (claims.get(id)?.token !== token) return;
      claims.delete(id);
      settledAt.set(id, Date.now());
    },
    /** Whether the claim was settled at or after `since`: a read begun then may show its row stale. */
    settledSince: (id: string, since: number): boolean => (settledAt.get(id) ?? -1) >= since,
    /** Forgets settle times before `before`: no read begun since can show those rows stale. */
    forgetSettledBefore(before: number): void {
      for (const [id, at] of settledAt) if (at < before) settledAt.delete(id);
    },
    drop(id: string): void {
      claims.delete(id);
    },
    /** Ids of the claims last taken before `cutoff` (local epoch ms). */
    claimedBefore(cutoff: number): string[] {
      return [...claims].filter(([, c]) => c.claimedAt < cutoff).map(([id]) => id);
    },
    renewed(ids: string[]): void {
      for (const id of ids) {
        const c = claims.get(id);
        if (c) c.claimedAt = Date.now();
      }
    },
    /**
     * Stops the polls not yet started and forgets their claims; answers them, for a stopping worker
     * to hand back at once.
     */
    takeUnstarted(): { id: string; token: string | null }[] {
      const unstarted: { id: string; token: string | null }[] = [];
      for (const [id, c] of claims) {
        if (!c.timer) continue;
        clearTimeout(c.timer);
        claims.delete(id);
        unstarted.push({ id, token: c.token });
      }
      return unstarted;
    },
    /** Stops every poll not yet started. */
    cancelTimers(): void {
      for (const c of claims.values()) if (c.timer) clearTimeout(c.timer);
    },
    clear(): void {
      claims.clear();
      settledAt.clear();
    },
  };
}

export type PendingClaims = ReturnType<typeof createPendingClaims>;
