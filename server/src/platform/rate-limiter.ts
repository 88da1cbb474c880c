import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';

/** A budget: at most `points` per `windowSeconds` for one key (fixed window from the first hit). */
interface RateLimit {
  /** Names the budget; keys of different budgets never meet. */
  name: string;
  points: number;
  windowSeconds: number;
}

interface Reservation {
  /** Points this key has used in its current window, this one included. */
  consumed: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

const TABLE = 'rate_limits';

/**
 * rate-limiter-flexible's PostgreSQL store speaks to a `pg` client (`query({ text, values })`); this
 * hands it the application's Kysely instance instead, so the limits use the app's one pool.
 */
function storeClient<DB>(db: Kysely<DB>) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) };
    },
  };
}

/** Keys are hashed: the table holds no e-mail address or client address in clear. */
const digest = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Rate limits shared by every process through PostgreSQL (table `rate_limits`, migration 0009):
 * each reservation is one atomic upsert, so parallel requests to any number of app processes count
 * against one budget. Over budget answers with the seconds to wait.
 */
export function createRateLimits<DB>(db: Kysely<DB>) {
  const client = storeClient(db);
  let cleaner = true;

  return function createRateLimiter(limit: RateLimit) {
    const store = new RateLimiterPostgres({
      storeClient: client,
      storeType: 'client',
      tableName: TABLE,
      tableCreated: true,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.windowSeconds,
      // One limiter per process sweeps rows expired an hour ago (every 5 minutes, unref'd timer).
      clearExpiredByTimeout: cleaner,
    });
    cleaner = false;

    return {
      limit,
      /**
       * Reserves `points` for `key` atomically; answers the reservation, or the seconds to wait when
       * the budget is spent (the refused points still count, as every attempt does).
       */
      async take(key: string, points = 1): Promise<Reservation | { retryAfterSeconds: number }> {
        try {
          const res = await store.consume(digest(key), points);
          return { consumed: res.consumedPoints, resetSeconds: seconds(res.msBeforeNext) };
        } catch (outcome) {
          if (outcome instanceof RateLimiterRes) return { retryAfterSeconds: seconds(outcome.msBeforeNext) };
          throw outcome;
        }
      },
      /** Gives reserved points back (an attempt that turned out not to count). */
      async refund(key: string, points = 1): Promise<void> {
        await store.reward(digest(key), points);
      },
      /** Points used in the current window (0 when none). */
      async used(key: string): Promise<number> {
        return (await store.get(digest(key)))?.consumedPoints ?? 0;
      },
      async reset(key: string): Promise<void> {
        await store.delete(digest(key));
      },
    };
  };
}

export type RateLimiterFactory = ReturnType<typeof createRateLimits>;
type RateLimiter = ReturnType<RateLimiterFactory>;

/**
 * Reserves one point from each budget at once; throws 429 (with Retry-After) when any is spent.
 * Answers the reservations in the order given.
 */
export async function reserveAll(
  checks: readonly (readonly [RateLimiter, string])[],
  message: string,
): Promise<Reservation[]> {
  const outcomes = await Promise.all(checks.map(([limiter, key]) => limiter.take(key)));
  const waits = outcomes.flatMap((o) => ('retryAfterSeconds' in o ? [o.retryAfterSeconds] : []));
  if (waits.length > 0) {
    throw new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds: Math.max(...waits) });
  }
  return outcomes as Reservation[];
}
