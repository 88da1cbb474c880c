import { polledStatuses } from '@resort/shared';
import { sql } from 'kysely';

/**
 * The shared list of polled statuses as an SQL list of literals, `('ACTIVE', 'FIRING', 'ERROR')`:
 * literals rather than parameters, so every plan matches the partial indexes over the same
 * predicate (migrations/0006_engine.ts).
 */
export const polledStatusesSql = sql`(${sql.join(polledStatuses.map((s) => sql.lit(s)))})`;
