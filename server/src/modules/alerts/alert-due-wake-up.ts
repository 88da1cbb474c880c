import { holdConnection } from '../../platform/held-connection.ts';
import { ALERTS_DUE_CHANNEL } from './alert-due.repo.ts';

/**
 * The engine's wake-up: LISTEN on a connection of its own (outside the pool), calling `wake` on each
 * announcement that an alert became due sooner (migration 0023's triggers) and once each time it
 * listens (whatever was announced while not listening); reconnected a second after a loss, the
 * engine's bounded idle sleep covering the gap.
 */
export function listenForDueAlerts(connectionString: string, wake: () => void) {
  const held = holdConnection({
    connectionString,
    config: { application_name: 'resort-alerts engine wake-up' },
    onNotification: wake,
    async setUp(client) {
      await client.query(`LISTEN ${ALERTS_DUE_CHANNEL}`);
      wake();
    },
  });
  return { ready: held.ready, stop: () => held.close() };
}
