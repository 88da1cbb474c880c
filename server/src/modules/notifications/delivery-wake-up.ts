import pg from 'pg';
import { DELIVERY_CHANNEL } from './notifications.repo.ts';

/**
 * The delivery worker's wake-up: LISTEN on a connection of its own (outside the pool), calling
 * `wake` on each NOTIFY of new deliveries and once each time it listens (whatever arrived while
 * not listening); reconnected a second after a loss, the worker's backstop poll covering the gap.
 */
export function listenForDeliveries(connectionString: string, wake: () => void) {
  let running = true;
  let listener: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;

  function scheduleListen(): void {
    if (!running || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void listen();
    }, 1000);
  }

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('error', () => {});
    client.on('notification', wake);
    client.on('end', () => {
      if (listener === client) listener = null;
      scheduleListen();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
      if (!running) {
        await client.end();
        return;
      }
      listener = client;
      wake();
    } catch {
      await client.end().catch(() => {});
      scheduleListen();
    }
  }
  void listen();

  return {
    async stop(): Promise<void> {
      running = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const l = listener;
      listener = null;
      await l?.end().catch(() => {});
    },
  };
}
