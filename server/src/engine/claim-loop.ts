import { randomUUID } from 'node:crypto';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { EnginePartDeps } from './engine-deps.ts';
import type { LocalFigures } from './local-figures.ts';

/**
 * The scheduler: each tick gives new alerts their first due time, then claims alerts due within the
 * look-ahead in batches (one statement each) for as long as this worker has room and batches come
 * back full, and hands each batch to `dispatch`. Ticks are jittered, so the workers of a pool take
 * turns at the alerts coming due rather than the one whose ticks happen to fall first taking nearly
 * all of them.
 */
export function createClaimLoop(
  deps: EnginePartDeps & {
    figures: LocalFigures;
    dispatch: (alerts: ClaimedAlert[], token: string) => Promise<void>;
  },
) {
  const { alerts: polling, config, log, clock, pending, figures } = deps;
  let running = false;
  let ticking = false;
  let tickTimer: NodeJS.Timeout | null = null;

  async function tick() {
    if (!running || ticking) return;
    ticking = true;
    try {
      await polling.scheduleNew({ limit: 5000, prompt: config.ENGINE_PROMPT_FIRST_POLLS });
      while (running) {
        const room = config.ENGINE_MAX_PENDING - pending.size;
        if (room <= 0) break;
        const limit = Math.min(config.ENGINE_BATCH_SIZE, room);
        const token = randomUUID();
        const before = Date.now();
        const { alerts, dbNow: claimedAt } = await polling.claimDue({
          workerId: deps.workerId,
          token,
          limit,
          dueBefore: new Date(clock.now() + config.ENGINE_LOOKAHEAD_MS),
          leaseSeconds: config.ENGINE_LEASE_SECONDS,
        });
        figures.recordClaim(alerts.length, Date.now() - before);
        if (alerts.length > 0) {
          clock.observe(claimedAt, before, Date.now());
          await deps.dispatch(alerts, token);
        }
        if (alerts.length < limit) break;
      }
    } catch (err) {
      log.error({ err }, 'engine: scheduling failed; retrying');
    } finally {
      ticking = false;
    }
  }

  function scheduleTick(delay = 0) {
    if (!running) return;
    tickTimer = setTimeout(async () => {
      await tick();
      scheduleTick(config.ENGINE_TICK_MS * (0.5 + Math.random()));
    }, delay);
  }

  return {
    start() {
      running = true;
      scheduleTick();
    },
    stop() {
      running = false;
      if (tickTimer) clearTimeout(tickTimer);
    },
  };
}
