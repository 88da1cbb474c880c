import { type Kysely, sql } from 'kysely';

/**
 * Alert health (docs/decisions.md, "Alert health is kept on the alert row"; docs/product.md,
 * "Alert health"):
 * - `poll_runs.poll_class`: what each poll saw (shared pollClasses); null on runs written before. The
 *   timeline index carries it, so the timeline still reads from the index alone.
 * - `alerts.health` (healthy, degraded, failing, drifted), `health_cause` (the poll class behind it),
 *   `health_since`, `last_success_at` (the last poll whose answer the rules could read) and
 *   `drift_count` (answers in a row without a rule's path), written by the engine's write-back.
 * - `alerts.health_told`: the health its owner was last told of (healthy, failing or drifted). The
 *   health notifier tells owners where it differs; `alerts_health_untold_idx` finds those rows.
 * - `users.health_notices`: the owner's setting, on by default.
 * - `live_health_changed`: a health change is a live event (kind 'health', the health as its status).
 * - `templates.health_told`: whether admins were told that most of the template's alerts fail.
 * Alerts already in ERROR are failing; their owners were never told, so they are told once now.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE poll_runs ADD COLUMN poll_class text`.execute(db);
  // The timeline names its buckets' causes from the index alone, as it reads its counts.
  await sql`DROP INDEX IF EXISTS poll_runs_timeline_idx`.execute(db);
  await sql`CREATE INDEX poll_runs_timeline_idx ON poll_runs (alert_id, created_at)
            INCLUDE (ok, matched, watched_value, poll_class)`.execute(db);
  await sql`ALTER TABLE alerts
    ADD COLUMN health text NOT NULL DEFAULT 'healthy'
      CHECK (health IN ('healthy','degraded','failing','drifted')),
    ADD COLUMN health_cause text,
    ADD COLUMN health_since timestamptz,
    ADD COLUMN last_success_at timestamptz,
    ADD COLUMN drift_count integer NOT NULL DEFAULT 0,
    ADD COLUMN health_told text NOT NULL DEFAULT 'healthy'
      CHECK (health_told IN ('healthy','failing','drifted'))`.execute(db);
  await sql`UPDATE alerts SET health = 'failing', health_since = coalesce(last_run_at, now()),
      health_cause = CASE WHEN last_status_code IN (401,403,407,429,451) THEN 'refused'
                          WHEN last_status_code >= 500 THEN 'upstream_error' ELSE 'other_error' END
    WHERE status = 'ERROR'`.execute(db);
  await sql`UPDATE alerts SET last_success_at = last_completed_at
    WHERE status IN ('ACTIVE','FIRING') AND last_error IS NULL`.execute(db);
  await sql`CREATE INDEX alerts_health_untold_idx ON alerts (health_since)
    WHERE health_told <> CASE health WHEN 'degraded' THEN health_told ELSE health END`.execute(db);
  // A health change is a live event (kind 'health'): lists and dashboards refresh without reload.
  await sql`
    CREATE FUNCTION live_health_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM live_event(NEW.user_id, NEW.id, 'health',
        jsonb_build_object('status', NEW.health, 'message', NEW.health_cause, 'previous', OLD.health));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_health_changed AFTER UPDATE OF health ON alerts
            FOR EACH ROW WHEN (NEW.health IS DISTINCT FROM OLD.health)
            EXECUTE FUNCTION live_health_changed()`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN health_notices boolean NOT NULL DEFAULT true`.execute(db);
  await sql`ALTER TABLE templates ADD COLUMN health_told boolean NOT NULL DEFAULT false`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE templates DROP COLUMN IF EXISTS health_told`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS health_notices`.execute(db);
  await sql`DROP TRIGGER IF EXISTS live_health_changed ON alerts`.execute(db);
  await sql`DROP FUNCTION IF EXISTS live_health_changed()`.execute(db);
  await sql`DROP INDEX IF EXISTS alerts_health_untold_idx`.execute(db);
  await sql`ALTER TABLE alerts DROP COLUMN IF EXISTS health_told, DROP COLUMN IF EXISTS drift_count,
    DROP COLUMN IF EXISTS last_success_at, DROP COLUMN IF EXISTS health_since,
    DROP COLUMN IF EXISTS health_cause, DROP COLUMN IF EXISTS health`.execute(db);
  await sql`DROP INDEX IF EXISTS poll_runs_timeline_idx`.execute(db);
  await sql`ALTER TABLE poll_runs DROP COLUMN IF EXISTS poll_class`.execute(db);
  await sql`CREATE INDEX poll_runs_timeline_idx ON poll_runs (alert_id, created_at)
            INCLUDE (ok, matched, watched_value)`.execute(db);
}
