import { STALE_AFTER_INTERVALS } from '@resort/shared';
import { type Kysely, sql, type Transaction } from 'kysely';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { DB } from '../../db/types.ts';

type Db = Kysely<DB> | Transaction<DB>;

/*
 * The alert health's own statements: the changes owners are still to be told of, and the template
 * figures for admins and operators. The engine's write-back sets the health itself
 * (alert-write-back.repo.ts).
 */

/**
 * What the owner was told, kept apart from the health: degraded tells nothing (the told state stays).
 * Tested with IS TRUE, as alerts_health_untold_idx's predicate is: the form the planner applies the
 * expression's statistics to (migration 0027), so it reads the index's few rows rather than every alert.
 */
const untold = sql`(a.health_told <> CASE a.health WHEN 'degraded' THEN a.health_told ELSE a.health END) IS TRUE`;

/** An alert whose health differs from what its owner was told. */
export interface UntoldHealth {
  id: string;
  user_id: string;
  title: string | null;
  party_name: string | null;
  template_id: string;
  template_name: string;
  status: string;
  health: string;
  health_cause: string | null;
  health_since: Date;
  health_told: string;
  last_success_at: Date | null;
  health_notices: boolean;
}

/** An owner whose alerts keep changing is told at the latest this many delays after the first change. */
const MAX_WAIT_DELAYS = 4;

/**
 * Locks the untold health changes of every owner whose alerts have not changed for `delaySeconds`
 * (or whose oldest untold change has waited MAX_WAIT_DELAYS of them): the owner's whole set, so
 * alerts failing together are told together, up to `limit` rows. NO KEY UPDATE: notifications referencing the alerts may still be inserted meanwhile.
 * Served by alerts_health_untold_idx (untold-health-plan.int.test.ts).
 */
export function untoldHealthStatement(delaySeconds: number, limit: number) {
  return sql<UntoldHealth>`
    WITH ready AS (
      SELECT a.user_id FROM alerts a WHERE ${untold}
      GROUP BY a.user_id
      HAVING max(a.health_since) <= now() - make_interval(secs => ${delaySeconds})
          OR min(a.health_since) <= now() - make_interval(secs => ${delaySeconds * MAX_WAIT_DELAYS})
    )
    SELECT a.id, a.user_id, a.title, a.party_name, a.template_id, t.name AS template_name, a.status,
           a.health, a.health_cause, a.health_since, a.health_told, a.last_success_at, u.health_notices
    FROM alerts a
    JOIN ready ON ready.user_id = a.user_id
    JOIN templates t ON t.id = a.template_id
    JOIN users u ON u.id = a.user_id
    WHERE ${untold}
    ORDER BY a.user_id, a.health_since
    LIMIT ${limit}
    FOR NO KEY UPDATE OF a SKIP LOCKED`;
}

/** Runs untoldHealthStatement: locks and answers the changes ready to be told. */
export async function lockUntoldHealth(trx: Transaction<DB>, delaySeconds: number, limit: number) {
  const { rows } = await untoldHealthStatement(delaySeconds, limit).execute(trx);
  return rows;
}

/**
 * The other way to fail (docs/product.md, "Alert health"): a polled alert with no successful check in
 * STALE_AFTER_INTERVALS of its intervals (counted from its last success, or from when it last started
 * polling), e.g. because its host keeps deferring its polls, is failing; its cause stays the one it
 * had, else `deferred`. One statement over the polled alerts; answers how many turned failing.
 */
export async function failStaleAlerts(db: Db): Promise<number> {
  const result = await sql`
    UPDATE alerts SET health = 'failing', health_since = now(),
                      health_cause = coalesce(health_cause, 'deferred')
    WHERE status IN ${polledStatusesSql} AND health IN ('healthy', 'degraded')
      AND greatest(coalesce(last_success_at, '-infinity'), active_since)
          < now() - make_interval(secs => ${STALE_AFTER_INTERVALS} * polling_interval_seconds)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Records what each alert's owner has now been told. */
export async function markHealthTold(trx: Transaction<DB>, told: { id: string; told: string }[]) {
  if (told.length === 0) return;
  await sql`
    UPDATE alerts a SET health_told = v.told
    FROM unnest(${told.map((r) => r.id)}::uuid[], ${told.map((r) => r.told)}::text[]) AS v(id, told)
    WHERE a.id = v.id`.execute(trx);
}

/** One template's health: its polled alerts, how many fail, the dominant cause and since when. */
export interface TemplateHealthRow {
  template_id: string;
  template_name: string;
  polled: number;
  failing: number;
  drifted: number;
  degraded: number;
  cause: string | null;
  since: Date | null;
  told: boolean;
}

/** Per template with polled alerts: the counts per health, the most frequent failing cause, since when. */
export async function readTemplateHealth(db: Db): Promise<TemplateHealthRow[]> {
  const { rows } = await sql<TemplateHealthRow>`
    SELECT t.id AS template_id, t.name AS template_name, t.health_told AS told,
           count(*)::int AS polled,
           (count(*) FILTER (WHERE a.health = 'failing'))::int AS failing,
           (count(*) FILTER (WHERE a.health = 'drifted'))::int AS drifted,
           (count(*) FILTER (WHERE a.health = 'degraded'))::int AS degraded,
           mode() WITHIN GROUP (ORDER BY a.health_cause) FILTER (WHERE a.health IN ('failing','drifted')) AS cause,
           min(a.health_since) FILTER (WHERE a.health IN ('failing','drifted')) AS since
    FROM alerts a JOIN templates t ON t.id = a.template_id
    WHERE a.status IN ${polledStatusesSql}
    GROUP BY t.id, t.name, t.health_told
    ORDER BY t.name`.execute(db);
  return rows;
}

/** Records whether admins were told that most of a template's alerts fail. */
export async function markTemplateHealthTold(db: Db, templateIds: string[], told: boolean) {
  if (templateIds.length === 0) return;
  await db.updateTable('templates').set({ health_told: told }).where('id', 'in', templateIds).execute();
}
