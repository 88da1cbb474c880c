import pg from 'pg';

/** A worker's own database session: its backend's pid (its start time is read in SQL, exactly). */
export interface SessionIdentity {
  pid: number;
}

/**
 * One connection a worker holds for as long as it runs, outside the pool, doing nothing: its
 * backend's pid and start time stand for the worker in `pg_stat_activity`. When the process dies,
 * its socket closes and the backend ends with it, so peers see the worker gone at their next beat
 * (docs/decisions.md, "A dead worker is noticed by its session"). Opened again a second after a
 * loss; `identity()` is null meanwhile.
 */
export function openWorkerSession(connectionString: string, onOpened: (identity: SessionIdentity) => void) {
  let running = true;
  let client: pg.Client | null = null;
  let current: SessionIdentity | null = null;
  let retry: NodeJS.Timeout | null = null;

  function scheduleOpen(): void {
    if (!running || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void open();
    }, 1000);
  }

  async function open(): Promise<SessionIdentity | null> {
    // Kept alive through idle middleboxes, and exempt from a server's idle_session_timeout: an idle
    // session ended by either would make peers take a live worker for dead.
    const c = new pg.Client({
      connectionString,
      application_name: 'resort-alerts worker session',
      keepAlive: true,
      options: '-c idle_session_timeout=0',
    });
    c.on('error', () => {});
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      current = null;
      scheduleOpen();
    });
    try {
      await c.connect();
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      if (!running || !rows[0]) {
        await c.end();
        return null;
      }
      client = c;
      current = rows[0];
      onOpened(current);
      return current;
    } catch {
      await c.end().catch(() => {});
      scheduleOpen();
      return null;
    }
  }

  const first = open();
  return {
    /** Resolves once the first attempt to open is over: the identity, or null when it failed. */
    ready: first,
    identity: (): SessionIdentity | null => current,
    async close(): Promise<void> {
      running = false;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      current = null;
      await c?.end().catch(() => {});
    },
  };
}
