import type { LiveEvent } from '@resort/shared';
import pg from 'pg';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { eventsAfter, latestEventId, pruneEvents, type StoredEvent } from './live.repo.ts';

/** The channels the migration's triggers NOTIFY on (migrations/0011_alert_insight.ts). */
const DURABLE_CHANNEL = 'resort_live';
const POLLS_CHANNEL = 'resort_live_polls';
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];
/** Events are kept a day: long enough to resume after any restart, short enough to stay small. */
const KEEP_HOURS = 24;
const REPLAY_LIMIT = 500;

type LiveListener = (event: LiveEvent) => void;

function toLiveEvent(e: StoredEvent): LiveEvent {
  const p = e.payload;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    kind: e.kind as LiveEvent['kind'],
    id: e.id,
    userId: e.user_id,
    registrationId: e.alert_id,
    status: text(p.status),
    notificationId: text(p.notificationId),
    message: text(p.message),
    notificationKind: text(p.kind),
  };
}

/**
 * Live events for this app process (issue [alert-insight]): one dedicated connection LISTENs for what
 * the triggers announce, whichever process wrote it (a worker, another app process, a delivery job),
 * and hands each event to the listeners of its user (and to admin listeners of every user). The
 * connection opens with the first listener and comes back by itself; what it missed while away is
 * read back from the event log, so no event is lost to a dropped connection.
 */
export function createLiveHub(deps: { db: Database; databaseUrl: string | null; log: Logger }) {
  const byUser = new Map<string, Set<LiveListener>>();
  const everyone = new Set<LiveListener>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let attempt = 0;
  let highWater: string | null = null;
  /** Aborted at close: every open stream ends, so an HTTP close is not held up by one. */
  const ending = new AbortController();

  function emit(event: LiveEvent) {
    if (event.id !== null && (highWater === null || BigInt(event.id) > BigInt(highWater)))
      highWater = event.id;
    for (const l of byUser.get(event.userId) ?? []) l(event);
    for (const l of everyone) l(event);
  }

  function onNotification(msg: pg.Notification) {
    if (!msg.payload) return;
    try {
      if (msg.channel === DURABLE_CHANNEL) {
        const n = JSON.parse(msg.payload) as {
          id: number;
          u: string;
          r: string | null;
          k: string;
          p: object;
        };
        emit(
          toLiveEvent({
            id: String(n.id),
            user_id: n.u,
            alert_id: n.r,
            kind: n.k,
            payload: n.p as Record<string, unknown>,
          }),
        );
      } else if (msg.channel === POLLS_CHANNEL) {
        for (const [userId, alertId, status] of JSON.parse(msg.payload) as [string, string, string][]) {
          emit({
            kind: 'poll',
            id: null,
            userId,
            registrationId: alertId,
            status,
            notificationId: null,
            message: null,
            notificationKind: null,
          });
        }
      }
    } catch (err) {
      deps.log.warn({ err, channel: msg.channel }, 'live: an announcement could not be read');
    }
  }

  async function connect(): Promise<void> {
    if (!deps.databaseUrl) return;
    const c = new pg.Client({ connectionString: deps.databaseUrl });
    c.on('notification', onNotification);
    c.on('error', (err) => deps.log.warn({ err }, 'live: listening connection failed'));
    c.on('end', () => {
      if (client === c) client = null;
      if (!closed) scheduleReconnect();
    });
    await c.connect();
    await c.query(`LISTEN ${DURABLE_CHANNEL}; LISTEN ${POLLS_CHANNEL}`);
    client = c;
    attempt = 0;
    // Whatever was announced while no connection listened is in the log.
    if (highWater !== null) {
      for (const e of await eventsAfter(deps.db, null, highWater, REPLAY_LIMIT)) emit(toLiveEvent(e));
    } else {
      highWater = await latestEventId(deps.db);
    }
  }

  function scheduleReconnect() {
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => {
      if (closed || client) return;
      connecting = connect()
        .catch((err) => {
          deps.log.warn({ err }, 'live: reconnecting failed');
          scheduleReconnect();
        })
        .finally(() => {
          connecting = null;
        });
    }, delay).unref();
  }

  async function ensureListening() {
    if (client || closed) return;
    if (!connecting) {
      connecting = connect().finally(() => {
        connecting = null;
      });
    }
    await connecting;
  }

  return {
    /**
     * Listens to one user's events (`userId`), or everyone's (null: admin views). Resolves once the
     * connection listens, so nothing committed after it is missed.
     */
    async listen(userId: string | null, listener: LiveListener): Promise<() => void> {
      if (userId === null) everyone.add(listener);
      else {
        const set = byUser.get(userId) ?? new Set<LiveListener>();
        byUser.set(userId, set);
        set.add(listener);
      }
      await ensureListening();
      return () => {
        if (userId === null) everyone.delete(listener);
        else {
          const set = byUser.get(userId);
          set?.delete(listener);
          if (set?.size === 0) byUser.delete(userId);
        }
      };
    },

    /** Events after `afterId` (a reconnecting browser's last event), oldest first. */
    async replay(userId: string | null, afterId: string): Promise<LiveEvent[]> {
      return (await eventsAfter(deps.db, userId, afterId, REPLAY_LIMIT)).map(toLiveEvent);
    },

    latestEventId: () => latestEventId(deps.db),

    /**
     * Deletes events older than a day (the maintenance job, in every process: whether or not a
     * browser ever subscribed here, events are written by every writer). Answers how many.
     */
    prune: () => pruneEvents(deps.db, KEEP_HOURS),

    /** Aborted when the hub closes (the process stops): the streams end. */
    ended: ending.signal,

    /** Ends every open stream, then stops listening. */
    async close() {
      closed = true;
      ending.abort();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
