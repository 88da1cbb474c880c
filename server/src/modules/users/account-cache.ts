import type pg from 'pg';
import { holdConnection } from '../../platform/held-connection.ts';
import type { Logger } from '../../platform/logger.ts';

/** The channel migrations/0021_account_notify.ts announces account changes on. */
export const ACCOUNTS_CHANNEL = 'resort_accounts';
/** How the listening connection names itself in `pg_stat_activity`. */
export const ACCOUNTS_LISTENER_NAME = 'resort-alerts accounts';
/**
 * A remembered account is read again after this long even when no change was heard: a bound on
 * what a connection that died without telling (no reset, no end) could leave stale.
 */
const MAX_AGE_MS = 30_000;
/** Enough for every account active at once on one process; the oldest goes first beyond it. */
const MAX_ENTRIES = 50_000;

/** What the authenticated rungs need of an account: who it is allowed to be, now. */
export interface AccountState {
  roles: string[];
  disabled: boolean;
  /** Access tokens issued before this (ms) are refused; null: none revoked. */
  tokensValidAfterMs: number | null;
}

/**
 * Account state remembered per process (docs/decisions.md, "Accounts remembered per process"), so an
 * authenticated request reads no account row. Trusted only while this process LISTENs for the
 * database's announcements of changes (a trigger on `users`, so every writer is heard): until the
 * connection listens, after it is lost, and while a read races an announcement, every answer comes
 * from the database and nothing is kept. The connection opens with the first lookup (a process
 * that serves no requests holds none) and is opened again a second after a loss, starting empty.
 */
export function createAccountCache(deps: {
  read: (userId: string) => Promise<AccountState | undefined>;
  /** Without it nothing is remembered: every lookup reads the database. */
  databaseUrl: string | null;
  log: Pick<Logger, 'warn'>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const entries = new Map<string, { state: AccountState; at: number }>();
  let listening = false;
  /** Bumped by every forgetting: a read begun before it keeps nothing (it may predate the change). */
  let generation = 0;
  let held: ReturnType<typeof holdConnection> | null = null;
  let closed = false;

  function forgetAll() {
    entries.clear();
    generation++;
  }

  function forget(userId: string) {
    entries.delete(userId);
    generation++;
  }

  function onNotification(message: pg.Notification) {
    if (message.channel !== ACCOUNTS_CHANNEL) return;
    if (!message.payload || message.payload === '*') forgetAll();
    else forget(message.payload);
  }

  function startListening() {
    if (held || closed || !deps.databaseUrl) return;
    held = holdConnection({
      connectionString: deps.databaseUrl,
      config: { application_name: ACCOUNTS_LISTENER_NAME, keepAlive: true },
      onNotification,
      async setUp(client) {
        await client.query(`LISTEN ${ACCOUNTS_CHANNEL}`);
        // What changed while no connection listened was not heard: start from nothing.
        forgetAll();
        listening = true;
      },
      onLost: () => {
        listening = false;
        forgetAll();
        deps.log.warn('accounts: the listening connection was lost; reading accounts from the database');
      },
    });
  }

  return {
    /** The account's state: remembered, or read (and remembered when that is safe). */
    async find(userId: string): Promise<AccountState | undefined> {
      startListening();
      const hit = listening ? entries.get(userId) : undefined;
      if (hit && now() - hit.at < MAX_AGE_MS) return hit.state;
      const before = generation;
      const state = await deps.read(userId);
      // An absent account is not remembered: it cannot come back under the same id.
      if (state && listening && before === generation) {
        entries.delete(userId);
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(userId, { state, at: now() });
      }
      return state;
    },

    /**
     * Forgets an account this process has just changed (after the commit): its next request reads
     * the change without waiting for the announcement.
     */
    forget,

    async close(): Promise<void> {
      closed = true;
      listening = false;
      forgetAll();
      await held?.close();
    },
  };
}

export type AccountCache = ReturnType<typeof createAccountCache>;
