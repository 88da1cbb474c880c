/** A failing receiver rests this long after its first failure, doubling up to the maximum. */
const REST_BASE_MS = 500;
const REST_MAX_MS = 30_000;
/** A rest ended this long ago is forgotten, and with it the failures that lengthened it. */
const FORGET_AFTER_MS = 10 * 60_000;

interface Rest {
  failures: number;
  until: number;
  timer: NodeJS.Timeout | null;
}

/** What a delivery rests under: its service, or its webhook's origin (docs/decisions.md, "[delivery]"). */
export interface RestKey {
  kind: 'service' | 'destination';
  id: string;
}

/**
 * Slack's host, the SMTP server and the SMS provider are shared by every user, so a failure there is
 * one user's hook, mailbox or number: the service rests alone. A webhook's origin is its owner's
 * own receiver, so the origin rests, whichever of the owner's hooks failed.
 */
export function restKeyOf(d: { type: string; destination: string; serviceId: string }): RestKey {
  return d.type === 'WEBHOOK'
    ? { kind: 'destination', id: d.destination }
    : { kind: 'service', id: d.serviceId };
}

/**
 * The rests of one delivery worker: a failure starts (or doubles) one, a success ends it, and
 * `onEnd` is called when one runs out so what waited can be claimed.
 */
export function createRests(onEnd: () => void) {
  const rests = { service: new Map<string, Rest>(), destination: new Map<string, Rest>() };

  function restingIds(map: Map<string, Rest>, now: number): string[] {
    const ids: string[] = [];
    for (const [id, rest] of map) {
      if (rest.until > now) ids.push(id);
      else if (rest.until < now - FORGET_AFTER_MS) map.delete(id);
    }
    return ids;
  }

  return {
    resting(key: RestKey, now: number): boolean {
      return (rests[key.kind].get(key.id)?.until ?? 0) > now;
    },

    /** The services and the destinations resting now, for the claims to skip. */
    restingNow(now: number): { services: string[]; destinations: string[] } {
      return { services: restingIds(rests.service, now), destinations: restingIds(rests.destination, now) };
    },

    failed(key: RestKey, now: number): void {
      const map = rests[key.kind];
      const rest = map.get(key.id) ?? { failures: 0, until: 0, timer: null };
      rest.failures++;
      const ms = Math.min(REST_MAX_MS, REST_BASE_MS * 2 ** (rest.failures - 1));
      rest.until = now + ms;
      if (rest.timer) clearTimeout(rest.timer);
      rest.timer = setTimeout(() => {
        rest.timer = null;
        onEnd();
      }, ms);
      map.set(key.id, rest);
    },

    succeeded(key: RestKey): void {
      const rest = rests[key.kind].get(key.id);
      if (!rest) return;
      if (rest.timer) clearTimeout(rest.timer);
      rests[key.kind].delete(key.id);
    },

    stop(): void {
      for (const map of Object.values(rests)) {
        for (const rest of map.values()) if (rest.timer) clearTimeout(rest.timer);
        map.clear();
      }
    },
  };
}
