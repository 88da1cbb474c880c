import { type Kysely, sql } from 'kysely';

/**
 * Accounts run by an administrator (docs/product.md, "Roles and permissions"):
 * - `users`: disabled accounts, the last sign-in, a verified e-mail address, and the moment before
 *   which every access token of the account is refused (a password reset, a disable).
 * - `alerts.suspended_from_status`: the status an alert had when its account was disabled (it is
 *   DISABLED meanwhile), restored when the account is enabled again.
 * - `app_settings`: settings an administrator changes at run time (the sign-up policy).
 * - `invitations`, `password_resets`: single-use links, stored only as SHA-256 of their tokens.
 * - `notification_services`: verification of e-mail and SMS destinations. Channels that exist now
 *   keep delivering (docs/decisions.md, "Verified destinations"): the primary e-mail channel that is
 *   the account's own address counts as verified, and marks that address verified; any other e-mail
 *   or SMS channel is marked verified as `existing`, which Settings shows.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('last_sign_in_at', 'timestamptz')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('tokens_valid_after', 'timestamptz')
    .execute();
  await db.schema.alterTable('alerts').addColumn('suspended_from_status', 'text').execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('user', 'admin')`))
    .addColumn('email', 'text')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('used_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // An e-mailed link proves the account reads its address; one an admin handed over does not.
    .addColumn('emailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

  await db.schema
    .alterTable('notification_services')
    .addColumn('verified_at', 'timestamptz')
    .addColumn('verified_via', 'text')
    .addColumn('verification_code_hash', 'text')
    .addColumn('verification_expires_at', 'timestamptz')
    .addColumn('verification_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // The account's own address as its e-mail channel: the address it signed up and signs in with.
  await sql`
    UPDATE notification_services s SET verified_at = now(), verified_via = 'account'
    FROM users u
    WHERE s.user_id = u.id AND s.type = 'EMAIL' AND lower(s.config->>'toEmail') = lower(u.email)`.execute(db);
  await sql`
    UPDATE users u SET email_verified_at = now()
    WHERE EXISTS (SELECT 1 FROM notification_services s
                  WHERE s.user_id = u.id AND s.verified_via = 'account')`.execute(db);
  // Every other channel existing now keeps delivering, marked so the owner can verify it.
  await sql`
    UPDATE notification_services SET verified_at = now(), verified_via = 'existing'
    WHERE verified_at IS NULL`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notification_services')
    .dropColumn('verified_at')
    .dropColumn('verified_via')
    .dropColumn('verification_code_hash')
    .dropColumn('verification_expires_at')
    .dropColumn('verification_attempts')
    .execute();
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.dropTable('app_settings').execute();
  await db.schema.alterTable('alerts').dropColumn('suspended_from_status').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('disabled_at')
    .dropColumn('last_sign_in_at')
    .dropColumn('email_verified_at')
    .dropColumn('tokens_valid_after')
    .execute();
}
