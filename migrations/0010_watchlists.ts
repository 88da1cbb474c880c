import { type Kysely, sql } from 'kysely';

/**
 * Watchlists, the archive and per-user notification preferences ([watchlists], docs/decisions.md).
 * Keeps every existing row: new columns have defaults, the status check only widens.
 * - watchlists (owned by a user) and watchlist_registrations (an alert may be in several).
 * - registrations.status gains ARCHIVED; archived_at and archived_from_status remember when and
 *   from which status, so a restore puts the alert back where it was. A trigger keeps the two
 *   columns right whoever writes the status (archive, restore, a PATCH of an archived alert).
 * - users.notify_push / notify_email / notify_sms: defaulting to on, on, off.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  const createdAt = sql`now()`;

  await db.schema
    .alterTable('users')
    .addColumn('notify_push', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('notify_email', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('notify_sms', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('watchlists')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('resort_code', 'text')
    .addColumn('quarter', 'text', (c) => c.check(sql`quarter IN ('Q1','Q2','Q3','Q4')`))
    .addColumn('notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema
    .createIndex('watchlists_user_idx')
    .on('watchlists')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('watchlist_registrations')
    .addColumn('watchlist_id', 'uuid', (c) => c.notNull().references('watchlists.id').onDelete('cascade'))
    .addColumn('registration_id', 'uuid', (c) =>
      c.notNull().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addPrimaryKeyConstraint('watchlist_registrations_pk', ['watchlist_id', 'registration_id'])
    .execute();
  await db.schema
    .createIndex('watchlist_registrations_registration_idx')
    .on('watchlist_registrations')
    .column('registration_id')
    .execute();

  await sql`ALTER TABLE registrations DROP CONSTRAINT IF EXISTS registrations_status_check`.execute(db);
  await sql`ALTER TABLE registrations ADD CONSTRAINT registrations_status_check
    CHECK (status IN ('ACTIVE','FIRING','BOOKED','PASSED','DISABLED','INACTIVE','ERROR','ARCHIVED'))`.execute(
    db,
  );
  await db.schema
    .alterTable('registrations')
    .addColumn('archived_at', 'timestamptz')
    .addColumn('archived_from_status', 'text')
    .execute();
  // The auto-archive sweep looks only at BOOKED and PASSED alerts, oldest change first.
  await sql`CREATE INDEX registrations_archivable_idx ON registrations (updated_at)
    WHERE status IN ('BOOKED', 'PASSED')`.execute(db);
  await sql`CREATE INDEX registrations_archived_idx ON registrations (user_id, archived_at)
    WHERE status = 'ARCHIVED'`.execute(db);

  await sql`
    CREATE FUNCTION registrations_track_archive() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = 'ARCHIVED' AND OLD.status <> 'ARCHIVED' THEN
        NEW.archived_at := now();
        NEW.archived_from_status := OLD.status;
        NEW.next_due_at := NULL;
        NEW.claimed_until := NULL;
      ELSIF OLD.status = 'ARCHIVED' AND NEW.status <> 'ARCHIVED' THEN
        NEW.archived_at := NULL;
        NEW.archived_from_status := NULL;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER registrations_track_archive BEFORE UPDATE OF status ON registrations
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION registrations_track_archive()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS registrations_track_archive ON registrations`.execute(db);
  await sql`DROP FUNCTION IF EXISTS registrations_track_archive()`.execute(db);
  // Archived alerts go back to the status they had, so the narrower check holds again.
  await sql`UPDATE registrations SET status = coalesce(archived_from_status, 'INACTIVE')
    WHERE status = 'ARCHIVED'`.execute(db);
  await sql`DROP INDEX IF EXISTS registrations_archived_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS registrations_archivable_idx`.execute(db);
  await db.schema
    .alterTable('registrations')
    .dropColumn('archived_at')
    .dropColumn('archived_from_status')
    .execute();
  await sql`ALTER TABLE registrations DROP CONSTRAINT IF EXISTS registrations_status_check`.execute(db);
  await sql`ALTER TABLE registrations ADD CONSTRAINT registrations_status_check
    CHECK (status IN ('ACTIVE','FIRING','BOOKED','PASSED','DISABLED','INACTIVE','ERROR'))`.execute(db);
  await db.schema.dropTable('watchlist_registrations').ifExists().execute();
  await db.schema.dropTable('watchlists').ifExists().execute();
  await db.schema
    .alterTable('users')
    .dropColumn('notify_push')
    .dropColumn('notify_email')
    .dropColumn('notify_sms')
    .execute();
}
