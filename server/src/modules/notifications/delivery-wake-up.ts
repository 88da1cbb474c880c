import { holdConnection } from '../../platform/held-connection.ts';
import { DELIVERY_CHANNEL } from './notifications.repo.ts';

/**
 * The delivery worker's wake-up: LISTEN on a connection of its own (outside the pool), calling
 * `wake` on each NOTIFY of new deliveries and once each time it listens (whatever arrived while
 * not listening); reconnected a second after a loss, the worker's backstop poll covering the gap.
 */
export function listenForDeliveries(connectionString: string, wake: () => void) {
  const held = holdConnection({
    connectionString,
    onNotification: wake,
    async setUp(client) {
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
      wake();
    },
  });
  return { stop: () => held.close() };
}
