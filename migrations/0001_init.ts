import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> so they never depend on today's table types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  const createdAt = sql`now()`;

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('display_name', 'text')
    .addColumn('headline', 'text')
    .addColumn('bio', 'text')
    .addColumn('backup_email', 'text')
    .addColumn('mobile_number', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{user}'::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await sql`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`.execute(db);

  await db.schema
    .createTable('refresh_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'uuid', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema.createIndex('refresh_sessions_user_idx').on('refresh_sessions').column('user_id').execute();
  await db.schema
    .createIndex('refresh_sessions_family_idx')
    .on('refresh_sessions')
    .column('family_id')
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();

  await db.schema
    .createTable('template_groups')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('display_order', 'integer', (c) => c.notNull().defaultTo(0).check(sql`display_order >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await sql`CREATE UNIQUE INDEX template_groups_name_lower_key ON template_groups (lower(name))`.execute(db);

  await db.schema
    .createTable('templates')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('resort_code', 'text', (c) => c.notNull())
    .addColumn('template_group_id', 'uuid', (c) => c.references('template_groups.id').onDelete('set null'))
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) =>
      c.notNull().check(sql`method IN ('GET','POST','PUT','PATCH','DELETE')`),
    )
    .addColumn('polling_interval_seconds', 'integer', (c) =>
      c.notNull().defaultTo(60).check(sql`polling_interval_seconds > 0`),
    )
    .addColumn('default_headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('default_query', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('default_body', 'jsonb')
    .addColumn('response_watch_config', 'jsonb')
    .addColumn('response_watch_presets', 'jsonb')
    .addColumn('editable_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema.createIndex('templates_group_idx').on('templates').column('template_group_id').execute();

  await db.schema
    .createTable('notification_services')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type IN ('WEBHOOK','SLACK_WEBHOOK','EMAIL','SMS')`),
    )
    .addColumn('label', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('deactivated_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await sql`CREATE UNIQUE INDEX notification_services_one_per_type ON notification_services (user_id, type)
    WHERE type IN ('EMAIL', 'SMS', 'WEBHOOK')`.execute(db);

  await db.schema
    .createTable('registrations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('template_id', 'uuid', (c) => c.notNull().references('templates.id').onDelete('restrict'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('ACTIVE')
        .check(sql`status IN ('ACTIVE','FIRING','BOOKED','PASSED','DISABLED','INACTIVE','ERROR')`),
    )
    .addColumn('title', 'text')
    .addColumn('party_name', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('custom_headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('custom_query', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('custom_body', 'jsonb')
    .addColumn('overrides', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('watch_config', 'jsonb', (c) => c.notNull())
    .addColumn('polling_interval_seconds', 'integer', (c) =>
      c.notNull().check(sql`polling_interval_seconds BETWEEN 5 AND 86400`),
    )
    // Scheduling state: the engine claims rows whose next_due_at has come.
    .addColumn('next_due_at', 'timestamptz')
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_notified_at', 'timestamptz')
    .addColumn('last_completed_at', 'timestamptz')
    .addColumn('last_matched', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_values', 'jsonb')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('consecutive_errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema.createIndex('registrations_user_idx').on('registrations').column('user_id').execute();
  await db.schema
    .createIndex('registrations_template_idx')
    .on('registrations')
    .column('template_id')
    .execute();
  await sql`CREATE INDEX registrations_due_idx ON registrations (next_due_at)
    WHERE status IN ('ACTIVE', 'FIRING', 'ERROR')`.execute(db);

  await db.schema
    .createTable('registration_notification_services')
    .addColumn('registration_id', 'uuid', (c) =>
      c.notNull().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('notification_service_id', 'uuid', (c) =>
      c.notNull().references('notification_services.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addPrimaryKeyConstraint('registration_notification_services_pk', [
      'registration_id',
      'notification_service_id',
    ])
    .execute();
  await db.schema
    .createIndex('rns_service_idx')
    .on('registration_notification_services')
    .column('notification_service_id')
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('registration_id', 'uuid', (c) => c.references('registrations.id').onDelete('set null'))
    // One match event yields one notification: the engine derives this key from the poll it came from.
    .addColumn('event_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('MATCH'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('notifications_registration_idx')
    .on('notifications')
    .column('registration_id')
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('notification_id', 'uuid', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('notification_service_id', 'uuid', (c) =>
      c.notNull().references('notification_services.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('PENDING').check(sql`status IN ('PENDING','SUCCESS','FAILURE')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('dispatched_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addUniqueConstraint('notification_deliveries_once', ['notification_id', 'notification_service_id'])
    .execute();
  await db.schema
    .createIndex('deliveries_user_created_idx')
    .on('notification_deliveries')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('deliveries_service_idx')
    .on('notification_deliveries')
    .column('notification_service_id')
    .execute();

  await db.schema
    .createTable('proxies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull().check(sql`port BETWEEN 1 AND 65535`))
    .addColumn('protocol', 'text', (c) =>
      c.notNull().defaultTo('http').check(sql`protocol IN ('http','https','socks5')`),
    )
    .addColumn('username', 'text')
    .addColumn('password', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('success_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_successful_at', 'timestamptz')
    .addColumn('last_successful_url', 'text')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('last_failure_reason', 'text')
    .addColumn('auto_disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await sql`CREATE UNIQUE INDEX proxies_identity_key ON proxies (lower(host), port, protocol, coalesce(username, ''))`.execute(
    db,
  );

  await db.schema
    .createTable('poll_runs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('registration_id', 'uuid', (c) =>
      c.notNull().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('proxy_id', 'uuid', (c) => c.references('proxies.id').onDelete('set null'))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lateness_ms', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('matched', 'boolean')
    .addColumn('notified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(createdAt))
    .execute();
  await db.schema.createIndex('poll_runs_created_idx').on('poll_runs').column('created_at').execute();
  await db.schema
    .createIndex('poll_runs_registration_idx')
    .on('poll_runs')
    .columns(['registration_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'poll_runs',
    'proxies',
    'notification_deliveries',
    'notifications',
    'registration_notification_services',
    'registrations',
    'notification_services',
    'templates',
    'template_groups',
    'app_secrets',
    'refresh_sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
