import { randomUUID } from 'node:crypto';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { EnginePartDeps } from './engine-deps.ts';
import type { LocalFigures } from './local-figures.ts';
import type { Reservations } from './reservations.ts';

/** How often a claim also takes alerts whose holder's lease ran out (a backstop; it scans held rows). */
const EXPIRED_CLAIM_MS = 10_000;

/**
 * The scheduler: each tick gives new alerts their first due time, then takes this worker's
 * reservations due within the look-ahead (a read, `reservations.ts`) and claims other alerts due
 * within it in batches (one statement each) for as long as this worker has room and batches come
 * back full, and hands each batch to `dispatch`. Ticks are jittered, so the workers of a pool take
 * turns at the alerts coming due rather than the one whose ticks happen to fall first taking nearly
 * all of them.
 */
export function createClaimLoop(
  deps: EnginePartDeps & {
    figures: LocalFigures;
    reservations: Reservations;
    dispatch: (alerts: ClaimedAlert[]) => Promise<void>;
  },
) {
  const { alerts: polling, config, log, clock, pending, figures } = deps;
  let running = false;
  let ticking = false;
  let tickTimer: NodeJS.Timeout | null = null;
  let expiredClaimedAt = 0;

  async function tick() {
    if (!running || ticking) return;
    ticking = true;
    try {
      await polling.scheduleNew({ limit: 5000, prompt: config.ENGINE_PROMPT_FIRST_POLLS });
      while (running) {
        const room = config.ENGINE_MAX_PENDING - pending.size;
        if (room <= 0) break;
        const batch = Math.min(config.ENGINE_BATCH_SIZE, room);
        const dueBefore = new Date(clock.now() + config.ENGINE_LOOKAHEAD_MS);
        const reading = Date.now();
        const reserved = await deps.reservations.take(batch, dueBefore);
        if (reserved.dbNow) clock.observe(reserved.dbNow, reading, Date.now());
        if (reserved.alerts.length > 0) await deps.dispatch(reserved.alerts);
        const limit = batch - reserved.alerts.length;
        if (limit <= 0) continue;
        const before = Date.now();
        const expired = before - expiredClaimedAt >= EXPIRED_CLAIM_MS;
        if (expired) expiredClaimedAt = before;
        const { alerts, dbNow: claimedAt } = await polling.claimDue({
          workerId: deps.workerId,
          token: randomUUID(),
          limit,
          dueBefore,
          leaseSeconds: config.ENGINE_LEASE_SECONDS,
          expired,
        });
        figures.recordClaim(alerts.length, Date.now() - before);
        if (alerts.length > 0) {
          clock.observe(claimedAt, before, Date.now());
          await deps.dispatch(alerts);
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
