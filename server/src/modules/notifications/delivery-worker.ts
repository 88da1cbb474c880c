import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AttemptResult } from './delivery-attempt.ts';
import { createRests, type RestKey, restKeyOf } from './delivery-rests.ts';
import { listenForDeliveries } from './delivery-wake-up.ts';
import {
  claimDueDeliveries,
  type DeliveryForSend,
  readNextDeliveryDue,
  releaseClaims,
  renewLeases,
} from './notifications.repo.ts';
import type { NotificationsService } from './notifications.service.ts';

type DeliveryWorkerConfig = Pick<
  Config,
  | 'DELIVERY_CONCURRENCY'
  | 'DELIVERY_HOST_CONCURRENCY'
  | 'DELIVERY_BATCH_SIZE'
  | 'DELIVERY_LEASE_SECONDS'
  | 'DELIVERY_POLL_MS'
  | 'DELIVERY_IDLE_POLL_MS'
>;

/** Outcomes wait at most this long to be recorded together. */
const RECORD_DELAY_MS = 5;
const RECORD_BATCH = 200;
/** Record statements one delivery worker runs at once. */
const RECORD_CONCURRENCY = 2;

interface Destination {
  sending: number;
  waiting: DeliveryForSend[];
}

/**
 * The delivery worker of one process (docs/decisions.md, "[delivery]"). It claims due deliveries
 * from the outbox in batches (one statement each: `FOR UPDATE SKIP LOCKED`, a claim token, a lease it
 * renews while it holds them), woken at once by the NOTIFY of each new notification's transaction and
 * by a backstop timer: short while it holds deliveries, else at the next delivery due. It sends them concurrently, at most
 * DELIVERY_HOST_CONCURRENCY at once per destination. A receiver that fails rests (0.5 s doubling to
 * 30 s; delivery-rests.ts: a service on a shared provider, a webhook's origin): its claimed rows are
 * given back and it is left out of the claims, as is a destination with no room, so a slow or dead
 * receiver holds back only its own deliveries. Outcomes are recorded in batches, each under its claim.
 * A delivery worker killed outright leaves its rows to the lease: another claims them when it ends.
 */
export function startDeliveryWorker(deps: {
  db: Database;
  /** For the LISTEN connection, held outside the pool. */
  connectionString: string;
  notifications: Pick<NotificationsService, 'attempt' | 'recordAttempts'>;
  config: DeliveryWorkerConfig;
  log: Logger;
}) {
  const { db, notifications, log } = deps;
  const c = deps.config;
  const lease = c.DELIVERY_LEASE_SECONDS;
  /** Claimed and not yet recorded (waiting, being sent, or being recorded), by delivery id. */
  const held = new Map<string, DeliveryForSend>();
  const destinations = new Map<string, Destination>();
  const rests = createRests(() => void claim());
  const sending = new Set<Promise<void>>();
  let running = true;
  /** Set once stop() has given up on the sends still in flight: their outcomes are left to the lease. */
  let abandoned = false;
  let claiming = false;
  let claimAgain = false;
  let lastClaimError = 0;
  let pollTimer: NodeJS.Timeout | null = null;

  const toRecord: AttemptResult[] = [];
  let recording = 0;
  let recordTimer: NodeJS.Timeout | null = null;
  /** Records and give-backs under way, awaited by stop(). */
  const writes = new Set<Promise<void>>();

  function destinationOf(name: string): Destination {
    let d = destinations.get(name);
    if (!d) {
      d = { sending: 0, waiting: [] };
      destinations.set(name, d);
    }
    return d;
  }

  /**
   * A destination takes no more claims while holding what it may send at once and a batch more:
   * enough to keep it busy between claims, while a slow one holds back at most that much room.
   */
  function full(d: Destination): boolean {
    return d.sending + d.waiting.length >= c.DELIVERY_HOST_CONCURRENCY + c.DELIVERY_BATCH_SIZE;
  }

  async function claim(): Promise<void> {
    if (!running) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        claimAgain = false;
        const room = c.DELIVERY_CONCURRENCY - held.size;
        if (room <= 0) break;
        const resting = rests.restingNow(Date.now());
        const fullNow = [...destinations].filter(([, d]) => full(d)).map(([name]) => name);
        const limit = Math.min(room, c.DELIVERY_BATCH_SIZE);
        const rows = await claimDueDeliveries(db, {
          limit,
          token: randomUUID(),
          leaseSeconds: lease,
          skipDestinations: [...fullNow, ...resting.destinations],
          skipServices: resting.services,
        });
        const giveBack: DeliveryForSend[] = [];
        for (const row of rows) {
          const d = destinationOf(row.destination);
          // More than a destination has room for in one claim, or a rest begun since the claim
          // was asked for: handed back for the next claims.
          if (full(d) || rests.resting(restKeyOf(row), Date.now())) {
            giveBack.push(row);
            continue;
          }
          held.set(row.id, row);
          d.waiting.push(row);
        }
        for (const name of new Set(rows.map((r) => r.destination))) pump(name);
        if (giveBack.length > 0) await releaseClaims(db, giveBack);
        // A full batch: more is probably due.
        if (rows.length === limit) claimAgain = true;
      } while (claimAgain && running);
    } catch (err) {
      // The database is away (a restart): the backstop poll tries again; said at most every 10 s.
      if (Date.now() - lastClaimError > 10_000) log.error({ err }, 'claiming deliveries failed');
      lastClaimError = Date.now();
    } finally {
      claiming = false;
      void armPoll();
    }
  }

  /**
   * The backstop claim: every DELIVERY_POLL_MS while holding deliveries; otherwise at the next due
   * delivery (a retry, a lease ending), at most DELIVERY_IDLE_POLL_MS away (docs/decisions.md,
   * "An idle engine sleeps until the next due time").
   */
  async function armPoll(): Promise<void> {
    let delay = c.DELIVERY_POLL_MS;
    if (held.size === 0) {
      try {
        const { nextAt, dbNow } = await readNextDeliveryDue(db);
        const untilDue = nextAt === null ? Number.POSITIVE_INFINITY : nextAt.getTime() - dbNow.getTime();
        delay = Math.min(c.DELIVERY_IDLE_POLL_MS, Math.max(c.DELIVERY_POLL_MS, untilDue));
      } catch {
        // The database is away: the short pace, as before.
      }
      // Claimed meanwhile (a wake-up): the short pace.
      if (held.size > 0 || claiming) delay = c.DELIVERY_POLL_MS;
    }
    if (!running) return;
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      pollTimer = null;
      void claim();
    }, delay);
  }

  function pump(name: string): void {
    const d = destinations.get(name);
    if (!d) return;
    while (running && d.sending < c.DELIVERY_HOST_CONCURRENCY && d.waiting.length > 0) {
      const row = d.waiting.shift()!;
      d.sending++;
      const task = send(name, d, row);
      sending.add(task);
      void task.finally(() => sending.delete(task));
    }
    if (d.sending === 0 && d.waiting.length === 0) destinations.delete(name);
  }

  async function send(name: string, d: Destination, row: DeliveryForSend): Promise<void> {
    let result: AttemptResult;
    try {
      result = await notifications.attempt(row);
    } catch (err) {
      // attempt() turns every send failure into an outcome; this is a bug: the lease brings it back.
      log.error({ err, deliveryId: row.id }, 'delivery attempt threw');
      held.delete(row.id);
      d.sending--;
      pump(name);
      return;
    }
    d.sending--;
    if (abandoned) return;
    const key = restKeyOf(row);
    if (result.destinationFailed) {
      rests.failed(key, Date.now());
      giveBackResting(d, key);
    } else if (result.failure === null) rests.succeeded(key);
    toRecord.push(result);
    scheduleRecord();
    pump(name);
  }

  /** The rows a new rest holds back are given back, so they hold no room while it lasts. */
  function giveBackResting(d: Destination, key: RestKey): void {
    const kept: DeliveryForSend[] = [];
    const resting: DeliveryForSend[] = [];
    for (const row of d.waiting) (sameKey(restKeyOf(row), key) ? resting : kept).push(row);
    if (resting.length === 0) return;
    d.waiting = kept;
    for (const row of resting) held.delete(row.id);
    const done = releaseClaims(db, resting)
      .catch((err) => log.warn({ err }, 'giving back resting deliveries failed; their leases will end'))
      .finally(() => writes.delete(done));
    writes.add(done);
  }

  function scheduleRecord(): void {
    if (recordTimer || recording >= RECORD_CONCURRENCY || toRecord.length === 0) return;
    recordTimer = setTimeout(
      () => {
        recordTimer = null;
        const batch = toRecord.splice(0, RECORD_BATCH);
        recording++;
        const done = record(batch).finally(() => {
          recording--;
          writes.delete(done);
          scheduleRecord();
        });
        writes.add(done);
        scheduleRecord();
      },
      toRecord.length >= RECORD_BATCH ? 0 : RECORD_DELAY_MS,
    );
  }

  async function record(batch: AttemptResult[]): Promise<void> {
    try {
      await notifications.recordAttempts(batch);
    } catch (err) {
      // Not recorded: the rows stay claimed until their lease ends, then are sent again (same id).
      log.error({ err, deliveries: batch.length }, 'recording delivery outcomes failed');
    }
    for (const r of batch) held.delete(r.outcome.id);
    // Room again, here and at the destinations: claim what is due.
    void claim();
  }

  // Leases of the rows held (waiting or being sent) are renewed well before they end.
  const renewTimer = setInterval(
    () => {
      if (held.size === 0) return;
      renewLeases(db, [...held.values()], lease).catch((err) =>
        log.warn({ err }, 'renewing delivery leases failed'),
      );
    },
    Math.max(1000, (lease * 1000) / 3),
  );

  const wakeUp = listenForDeliveries(deps.connectionString, () => void claim());
  void claim();

  return {
    /** Deliveries claimed by this process and not yet recorded. */
    held: () => held.size,
    /**
     * Stops claiming, gives back the deliveries not yet started, lets the ones being sent finish
     * within `timeoutMs` and records them. A send still going then is left to its lease: another
     * worker sends it again (same webhook-id) once the lease ends.
     */
    async stop(timeoutMs = 7000): Promise<void> {
      if (!running) return;
      running = false;
      if (pollTimer) clearTimeout(pollTimer);
      await wakeUp.stop();
      const unstarted: DeliveryForSend[] = [];
      rests.stop();
      for (const d of destinations.values()) unstarted.push(...d.waiting.splice(0));
      for (const row of unstarted) held.delete(row.id);
      await releaseClaims(db, unstarted).catch((err) =>
        log.warn({ err }, 'giving back unsent deliveries failed; their leases will end'),
      );
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...sending]), deadline]);
      clearTimeout(timer);
      abandoned = true;
      if (recordTimer) clearTimeout(recordTimer);
      recordTimer = null;
      while (toRecord.length > 0) await record(toRecord.splice(0, RECORD_BATCH));
      await Promise.allSettled([...writes]);
      clearInterval(renewTimer);
    },
  };
}

export type DeliveryWorker = ReturnType<typeof startDeliveryWorker>;

function sameKey(a: RestKey, b: RestKey): boolean {
  return a.kind === b.kind && a.id === b.id;
}
