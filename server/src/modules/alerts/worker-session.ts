import { holdConnection } from '../../platform/held-connection.ts';

/**
 * One connection a worker holds for as long as it runs, outside the pool, doing nothing: its
 * backend's pid stands for the worker in `pg_stat_activity`. When the process dies, its socket
 * closes and the backend ends with it, so peers see the worker gone at their next beat
 * (docs/decisions.md, "A dead worker is noticed by its session"). Opened again a second after a
 * loss, `onOpened` then naming the new backend; `pid()` is null meanwhile.
 */
export function openWorkerSession(connectionString: string, onOpened: (pid: number) => void) {
  let pid: number | null = null;
  const held = holdConnection({
    connectionString,
    // Kept alive through idle middleboxes, and exempt from a server's idle_session_timeout: an idle
    // session ended by either would make peers take a live worker for dead.
    config: {
      application_name: 'resort-alerts worker session',
      keepAlive: true,
      options: '-c idle_session_timeout=0',
    },
    async setUp(client) {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      pid = rows[0]!.pid;
      onOpened(pid);
    },
    onLost: () => {
      pid = null;
    },
  });
  return {
    /** Resolves once the first attempt to open is over. */
    ready: held.ready,
    pid: (): number | null => pid,
    close: () => held.close(),
  };
}
