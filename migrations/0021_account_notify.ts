import { type Kysely, sql } from 'kysely';

/**
 * Account changes announced (docs/decisions.md, "Accounts remembered per process"): every app process
 * remembers each account's roles, disabled time and token cut-off, and forgets an account when this
 * trigger announces a change to one of them, or its deletion, on `resort_accounts` (the account's id;
 * `*` when the table is truncated). A trigger, so every writer is heard: the app, a script, an
 * operator's SQL.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION users_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('resort_accounts', OLD.id::text);
      IF TG_OP = 'UPDATE' AND NEW.id IS DISTINCT FROM OLD.id THEN
        PERFORM pg_notify('resort_accounts', NEW.id::text);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER users_account_changed AFTER UPDATE OF id, roles, disabled_at, tokens_valid_after
            ON users FOR EACH ROW
            WHEN (NEW.id IS DISTINCT FROM OLD.id OR NEW.roles IS DISTINCT FROM OLD.roles
              OR NEW.disabled_at IS DISTINCT FROM OLD.disabled_at
              OR NEW.tokens_valid_after IS DISTINCT FROM OLD.tokens_valid_after)
            EXECUTE FUNCTION users_account_changed()`.execute(db);
  await sql`CREATE TRIGGER users_account_deleted AFTER DELETE ON users
            FOR EACH ROW EXECUTE FUNCTION users_account_changed()`.execute(db);
  await sql`
    CREATE FUNCTION users_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('resort_accounts', '*');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
            FOR EACH STATEMENT EXECUTE FUNCTION users_truncated()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS users_truncated ON users`.execute(db);
  await sql`DROP TRIGGER IF EXISTS users_account_deleted ON users`.execute(db);
  await sql`DROP TRIGGER IF EXISTS users_account_changed ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS users_truncated()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS users_account_changed()`.execute(db);
}
