import { type Kysely, sql } from 'kysely';

/**
 * The poll log in blocks (docs/decisions.md, "A poll writes one row"): a poll's record (`poll_record`,
 * the columns a poll run had) is appended to its alert's row, `alerts.recent_polls`, by the write-back
 * that updates that row anyway; once the alert holds POLL_BLOCK_SIZE of them, or its oldest is an hour
 * old, the same write-back moves them to one row of `poll_blocks`. A poll so writes the alert row and,
 * one poll in POLL_BLOCK_SIZE, a block: where it wrote the alert row and a row of `poll_runs` before.
 *
 * `poll_runs` stays, as a view with the table's columns, over both: the polls in blocks and those still
 * on their alert's row. `xmin` is the transaction that wrote the row holding the record;
 * `block_first_at` and `block_last_at` its block's oldest and newest poll (-infinity and infinity on the
 * alert row), bounds that let a reader in time skip blocks (`block_last_at >= since` reads
 * poll_blocks_alert_idx). Inserting into
 * the view (operators' scripts, tests, benchmark seeds) stores each row as a block of one poll. A deleted
 * proxy is forgotten by the view (`proxy_id` is null), as ON DELETE SET NULL did, with no write.
 *
 * Polls are announced to the live hub (`resort_live_polls`) by `announce_polls`, which the write-back
 * calls; it replaces the trigger on inserts into the table.
 */
const recordColumns = `id bigint, proxy_id uuid, due_at timestamptz, started_at timestamptz,
  finished_at timestamptz, lateness_ms integer, duration_ms integer, status_code integer, ok boolean,
  matched boolean, notified boolean, error text, worker_id uuid, watched_value double precision,
  deferred boolean, poll_class text, created_at timestamptz`;

const recordOf = (r: string) => `ROW(${r}.id, ${r}.proxy_id, ${r}.due_at, ${r}.started_at, ${r}.finished_at,
  ${r}.lateness_ms, ${r}.duration_ms, ${r}.status_code, ${r}.ok, ${r}.matched, ${r}.notified, ${r}.error,
  ${r}.worker_id, ${r}.watched_value, ${r}.deferred, ${r}.poll_class, ${r}.created_at)::poll_record`;

/** The view's columns from a poll record `p` held by the row `holder` of alert `alert`. */
const viewColumns = (
  holder: string,
  alert: string,
  firstAt: string,
  lastAt: string,
) => `p.id, ${alert} AS alert_id,
  x.id AS proxy_id, p.due_at, p.started_at, p.finished_at, p.lateness_ms, p.duration_ms, p.status_code,
  p.ok, p.matched, p.notified, p.error, p.created_at, p.worker_id, p.watched_value, p.deferred,
  p.poll_class, ${holder}.xmin AS xmin, ${firstAt} AS block_first_at, ${lastAt} AS block_last_at`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE TYPE poll_record AS (${recordColumns})`).execute(db);
  await sql`CREATE SEQUENCE poll_record_ids`.execute(db);
  await sql`SELECT setval('poll_record_ids', coalesce((SELECT max(id) FROM poll_runs), 0) + 1, false)`.execute(
    db,
  );
  await sql`CREATE TABLE poll_blocks (
      id bigserial PRIMARY KEY,
      alert_id uuid NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
      first_at timestamptz NOT NULL,
      last_at timestamptz NOT NULL,
      polls poll_record[] NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX poll_blocks_alert_idx ON poll_blocks (alert_id, last_at)`.execute(db);
  await sql`CREATE INDEX poll_blocks_last_idx ON poll_blocks (last_at)`.execute(db);
  await sql`ALTER TABLE alerts ADD COLUMN recent_polls poll_record[]`.execute(db);
  await sql
    .raw(`INSERT INTO poll_blocks (alert_id, first_at, last_at, polls)
      SELECT alert_id, min(created_at), max(created_at), array_agg(${recordOf('r')} ORDER BY created_at, id)
      FROM (SELECT *, (row_number() OVER (PARTITION BY alert_id ORDER BY created_at, id) - 1) / 64 AS part
            FROM poll_runs) r
      GROUP BY alert_id, part`)
    .execute(db);
  await sql`DROP TABLE poll_runs`.execute(db);
  await sql`DROP FUNCTION live_polls_recorded()`.execute(db);

  await sql
    .raw(`CREATE VIEW poll_runs AS
      SELECT ${viewColumns('b', 'b.alert_id', 'b.first_at', 'b.last_at')}
      FROM poll_blocks b CROSS JOIN LATERAL unnest(b.polls) AS p
      LEFT JOIN proxies x ON x.id = p.proxy_id
      UNION ALL
      SELECT ${viewColumns('a', 'a.id', `'-infinity'::timestamptz`, `'infinity'::timestamptz`)}
      FROM alerts a CROSS JOIN LATERAL unnest(a.recent_polls) AS p
      LEFT JOIN proxies x ON x.id = p.proxy_id`)
    .execute(db);
  await sql`ALTER VIEW poll_runs ALTER COLUMN id SET DEFAULT nextval('poll_record_ids')`.execute(db);
  await sql`ALTER VIEW poll_runs ALTER COLUMN notified SET DEFAULT false`.execute(db);
  await sql`ALTER VIEW poll_runs ALTER COLUMN deferred SET DEFAULT false`.execute(db);
  await sql`ALTER VIEW poll_runs ALTER COLUMN created_at SET DEFAULT now()`.execute(db);
  await sql
    .raw(`CREATE FUNCTION poll_runs_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO poll_blocks (alert_id, first_at, last_at, polls)
      VALUES (NEW.alert_id, NEW.created_at, NEW.created_at, ARRAY[${recordOf('NEW')}]);
      PERFORM announce_polls(ARRAY[NEW.alert_id]);
      RETURN NEW;
    END $$`)
    .execute(db);
  // One announcement per 60 alerts polled: their owner, the alert and its status after the polls.
  await sql`
    CREATE FUNCTION announce_polls(alert_ids uuid[]) RETURNS integer LANGUAGE sql AS $$
      SELECT count(pg_notify('resort_live_polls', chunk))::integer FROM (
        SELECT json_agg(json_build_array(p.user_id, p.id, p.status))::text AS chunk
        FROM (
          SELECT r.user_id, r.id, r.status, (row_number() OVER () - 1) / 60 AS part
          FROM (SELECT DISTINCT unnest(alert_ids) AS id) n JOIN alerts r ON r.id = n.id
        ) p
        GROUP BY p.part
      ) c
    $$`.execute(db);
  await sql`CREATE TRIGGER poll_runs_insert INSTEAD OF INSERT ON poll_runs
            FOR EACH ROW EXECUTE FUNCTION poll_runs_insert()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER VIEW poll_runs RENAME TO poll_runs_view`.execute(db);
  await sql`CREATE TABLE poll_runs (
      id bigserial PRIMARY KEY,
      alert_id uuid NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
      proxy_id uuid REFERENCES proxies (id) ON DELETE SET NULL,
      due_at timestamptz NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz NOT NULL,
      lateness_ms integer NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      ok boolean NOT NULL,
      matched boolean,
      notified boolean NOT NULL DEFAULT false,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      worker_id uuid,
      watched_value double precision,
      deferred boolean NOT NULL DEFAULT false,
      poll_class text
    )`.execute(db);
  await sql`INSERT INTO poll_runs (id, alert_id, proxy_id, due_at, started_at, finished_at, lateness_ms,
        duration_ms, status_code, ok, matched, notified, error, created_at, worker_id, watched_value,
        deferred, poll_class)
      SELECT id, alert_id, proxy_id, due_at, started_at, finished_at, lateness_ms, duration_ms, status_code,
        ok, matched, notified, error, created_at, worker_id, watched_value, deferred, poll_class
      FROM poll_runs_view`.execute(db);
  await sql`SELECT setval('poll_runs_id_seq', coalesce((SELECT max(id) FROM poll_runs), 0) + 1, false)`.execute(
    db,
  );
  await sql`DROP VIEW poll_runs_view`.execute(db);
  await sql`DROP FUNCTION poll_runs_insert()`.execute(db);
  await sql`DROP FUNCTION announce_polls(uuid[])`.execute(db);
  await sql`ALTER TABLE alerts DROP COLUMN recent_polls`.execute(db);
  await sql`DROP TABLE poll_blocks`.execute(db);
  await sql`DROP SEQUENCE poll_record_ids`.execute(db);
  await sql`DROP TYPE poll_record`.execute(db);
  await sql`CREATE INDEX poll_runs_created_idx ON poll_runs (created_at)`.execute(db);
  await sql`CREATE INDEX poll_runs_timeline_idx ON poll_runs (alert_id, created_at)
            INCLUDE (ok, matched, watched_value, poll_class)`.execute(db);
  await sql`CREATE INDEX poll_runs_proxy_idx ON poll_runs (proxy_id) WHERE proxy_id IS NOT NULL`.execute(db);
  await sql`
    CREATE FUNCTION live_polls_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      chunk text;
    BEGIN
      FOR chunk IN
        SELECT json_agg(json_build_array(p.user_id, p.alert_id, p.status))::text
        FROM (
          SELECT r.user_id, r.id AS alert_id, r.status, (row_number() OVER () - 1) / 60 AS part
          FROM (SELECT DISTINCT alert_id FROM new_runs) n
          JOIN alerts r ON r.id = n.alert_id
        ) p
        GROUP BY p.part
      LOOP
        PERFORM pg_notify('resort_live_polls', chunk);
      END LOOP;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_polls_recorded AFTER INSERT ON poll_runs
            REFERENCING NEW TABLE AS new_runs FOR EACH STATEMENT
            EXECUTE FUNCTION live_polls_recorded()`.execute(db);
}
