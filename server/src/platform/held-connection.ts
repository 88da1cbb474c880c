import pg from 'pg';

/**
 * One PostgreSQL connection held outside the pool for as long as a process runs (a LISTEN, a worker's
 * session), opened again a second after a loss. `setUp` runs on each new connection before it counts
 * as open (LISTEN, read the backend's pid); a throw there counts as a failed open, tried again.
 */
export function holdConnection(options: {
  connectionString: string;
  config?: Omit<pg.ClientConfig, 'connectionString'>;
  setUp: (client: pg.Client) => Promise<void>;
  onNotification?: (message: pg.Notification) => void;
  /** The connection ended (it is opened again unless closed). */
  onLost?: () => void;
}) {
  let running = true;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  function scheduleOpen(): void {
    if (!running || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void open();
    }, 1000);
  }

  async function open(): Promise<boolean> {
    const c = new pg.Client({ ...options.config, connectionString: options.connectionString });
    c.on('error', () => {});
    if (options.onNotification) c.on('notification', options.onNotification);
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      options.onLost?.();
      scheduleOpen();
    });
    try {
      await c.connect();
      await options.setUp(c);
      if (!running) {
        await c.end();
        return false;
      }
      client = c;
      return true;
    } catch {
      await c.end().catch(() => {});
      scheduleOpen();
      return false;
    }
  }

  return {
    /** Resolves once the first attempt to open is over: whether it opened. */
    ready: open(),
    async close(): Promise<void> {
      running = false;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
