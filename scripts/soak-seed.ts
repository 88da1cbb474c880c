/**
 * Seeds the soak (scripts/soak.ts) through the REST API, as an operator and planners would: the
 * first account (the administrator), one template per upstream host, and three planners, each with
 * one webhook service (an account has one): the healthy planner's firstMatch alerts on the scripted
 * host notify the prompt receiver; the noisy planner's everyMatch alerts on the NUL host notify the
 * slow receiver, and its alerts on the hanging host never get an answer; the third planner's
 * everyMatch alerts on the odd host notify the receiver whose error bodies hold NUL bytes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { soakBodyTemplate } from './soak-receivers.ts';

export interface SoakCounts {
  healthy: number;
  nul: number;
  odd: number;
  hanging: number;
}

export interface SoakTargets {
  upstreams: { healthy: string; nul: string; odd: string; hanging: string };
  hooks: { prompt: string; slow: string; nulError: string };
}

/** Polling intervals (seconds): the product's shortest for the watched hosts, twice it for the hanging one. */
export const HEALTHY_INTERVAL_SECONDS = 5;
const NOISY_INTERVAL_SECONDS = 5;
const HANGING_INTERVAL_SECONDS = 10;

/** REST calls as one account (`token`), or anonymously: answers `data`, throws with the API's error. */
function restAs(apiUrl: string, token: string | null, signal: AbortSignal) {
  return async <T>(method: 'GET' | 'POST', route: string, payload?: unknown): Promise<T> => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(apiUrl + route, {
      method,
      headers,
      body: payload === undefined ? null : JSON.stringify(payload),
      signal,
    });
    const answer = await res.text();
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${answer.slice(0, 300)}`);
    return (JSON.parse(answer) as { data: T }).data;
  };
}

async function register(apiUrl: string, name: string, signal: AbortSignal) {
  const anonymous = restAs(apiUrl, null, signal);
  const answer = await anonymous<{ tokens: { accessToken: string } }>('POST', '/auth/register', {
    name: `Soak ${name}`,
    email: `${name}@soak.local`,
    password: 'SoakRun-2026-passphrase',
  });
  return restAs(apiUrl, answer.tokens.accessToken, signal);
}

/** `count` calls of `make`, at most `width` at once, answers in order. */
async function inParallel<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
  return out;
}

/** Every soak template offers one rule, and every soak alert takes it. */
const roomOpen = { path: 'rooms[*].available', operator: 'equals', value: true };
const presets = {
  any: [{ id: 'room-open', label: 'A room is open', condition: roomOpen, defaultEnabled: true }],
};
const watch = (notifyOn: 'firstMatch' | 'everyMatch') => ({
  any: [{ ...roomOpen, presetId: 'room-open' }],
  notifyOn,
});

export interface Seeded {
  /** The healthy alerts' ids → their ref (the `ref` query value the healthy host reads). */
  healthy: Map<string, number>;
  /** The healthy planner's REST calls. */
  healthyPlanner: ReturnType<typeof restAs>;
}

export async function seedSoak(
  apiUrl: string,
  t: SoakTargets,
  counts: SoakCounts,
  signal: AbortSignal,
): Promise<Seeded> {
  // The first account of an instance becomes its super_admin.
  const admin = await register(apiUrl, 'admin', signal);
  const template = async (name: string, url: string, interval: number) =>
    (
      await admin<{ id: string }>('POST', '/templates', {
        name: `Soak ${name} host`,
        resortCode: name.toUpperCase(),
        targetUrl: `${url}/availability`,
        method: 'GET',
        pollingIntervalSeconds: interval,
        defaultQuery: { resort: name },
        isActive: true,
        editableFields: [],
        responseWatchPresets: presets,
      })
    ).id;
  const templates = {
    healthy: await template('healthy', t.upstreams.healthy, HEALTHY_INTERVAL_SECONDS),
    nul: await template('nul', t.upstreams.nul, NOISY_INTERVAL_SECONDS),
    odd: await template('odd', t.upstreams.odd, NOISY_INTERVAL_SECONDS),
    hanging: await template('hanging', t.upstreams.hanging, HANGING_INTERVAL_SECONDS),
  };

  const planner = async (name: string, hookUrl: string) => {
    const as = await register(apiUrl, name, signal);
    const service = await as<{ id: string }>('POST', '/users/me/notification-services', {
      type: 'WEBHOOK',
      label: `Soak ${name}`,
      config: { url: hookUrl, method: 'POST', bodyTemplate: soakBodyTemplate },
    });
    // Every alert has its own request (`ref`), so no two share an upstream fetch.
    const alerts = (
      kind: keyof typeof templates,
      count: number,
      interval: number,
      notifyOn: 'firstMatch' | 'everyMatch' = 'everyMatch',
    ) =>
      inParallel(count, 8, async (ref) => {
        const created = await as<{ id: string }>('POST', '/registrations', {
          templateId: templates[kind],
          title: `Soak ${kind} ${ref}`,
          customQuery: { ref },
          watchConfig: watch(notifyOn),
          pollingIntervalSeconds: interval,
          notificationServiceIds: [service.id],
        });
        return [created.id, ref] as const;
      });
    return { as, alerts };
  };

  const healthy = await planner('healthy-planner', t.hooks.prompt);
  const healthyIds = await healthy.alerts('healthy', counts.healthy, HEALTHY_INTERVAL_SECONDS, 'firstMatch');
  const noisy = await planner('noisy-planner', t.hooks.slow);
  await noisy.alerts('nul', counts.nul, NOISY_INTERVAL_SECONDS);
  const odd = await planner('odd-planner', t.hooks.nulError);
  await odd.alerts('odd', counts.odd, NOISY_INTERVAL_SECONDS);
  await noisy.alerts('hanging', counts.hanging, HANGING_INTERVAL_SECONDS);
  return { healthy: new Map(healthyIds), healthyPlanner: healthy.as };
}

interface ListRow {
  id: string;
  activity: { lastCheckedAt: string | null; nextCheckAt: string | null } | null;
}

/**
 * Each healthy alert's phase on its polling grid (ref → ms modulo the interval), read through the
 * REST list once every one has been polled: after its first poll an alert's next due time is on
 * its grid for good.
 */
export async function healthyPhases(
  seeded: Seeded,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Map<number, number>> {
  const intervalMs = HEALTHY_INTERVAL_SECONDS * 1000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await seeded.healthyPlanner<ListRow[]>('GET', '/users/me/registrations');
    const polled = rows.filter((r) => seeded.healthy.has(r.id) && r.activity?.lastCheckedAt);
    if (polled.length === seeded.healthy.size) {
      return new Map(
        polled.map((r) => [seeded.healthy.get(r.id)!, Date.parse(r.activity!.nextCheckAt!) % intervalMs]),
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`only ${polled.length} of ${seeded.healthy.size} healthy alerts were polled in time`);
    }
    await sleep(500, undefined, { signal });
  }
}
