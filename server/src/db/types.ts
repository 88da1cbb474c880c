import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Hand-written table types, one interface per table of migrations/ (atproto style). */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string | T, string | T>;
type NullableJson<T = unknown> = ColumnType<T | null, string | T | null | undefined, string | T | null>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string | null;
  display_name: string | null;
  headline: string | null;
  bio: string | null;
  backup_email: string | null;
  mobile_number: string | null;
  password_hash: string;
  /** Notification preferences (defaults: push on, e-mail on, SMS off). */
  notify_push: ColumnType<boolean, boolean | undefined, boolean>;
  notify_email: ColumnType<boolean, boolean | undefined, boolean>;
  notify_sms: ColumnType<boolean, boolean | undefined, boolean>;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  /** Set while an administrator has disabled the account: it cannot sign in, its alerts do not poll. */
  disabled_at: NullableTimestamp;
  last_sign_in_at: NullableTimestamp;
  /** When the account proved it reads its e-mail (an e-mailed invitation or link, a channel code). */
  email_verified_at: NullableTimestamp;
  /** Access tokens issued before this are refused (a password reset, a disable). */
  tokens_valid_after: NullableTimestamp;
  /** Tell the owner when an alert starts failing or drifting and when it works again (default on). */
  health_notices: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RefreshSessionsTable {
  id: Generated<string>;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Date;
  absolute_expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface TemplateGroupsTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  display_order: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TemplatesTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  resort_code: string;
  template_group_id: string | null;
  target_url: string;
  method: string;
  polling_interval_seconds: ColumnType<number, number | undefined, number>;
  default_headers: Json<Record<string, string>>;
  default_query: Json<Record<string, string | number | boolean>>;
  default_body: NullableJson;
  response_watch_config: NullableJson;
  response_watch_presets: NullableJson;
  editable_fields: Json<unknown[]>;
  /** Which editable fields carry the stay (shared templateStaySchema); null: no stay declared. */
  stay: NullableJson;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  /** Whether admins were told that most of its alerts fail (cleared when they work again). */
  health_told: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationServicesTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  label: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  config: Json<Record<string, unknown>>;
  signing_secret: string;
  deactivated_reason: string | null;
  /** E-mail and SMS deliver only once verified; `verified_via`: code, account or existing. */
  verified_at: NullableTimestamp;
  verified_via: string | null;
  verification_code_hash: string | null;
  verification_expires_at: NullableTimestamp;
  verification_attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AlertsTable {
  id: Generated<string>;
  user_id: string;
  template_id: string;
  status: ColumnType<string, string | undefined, string>;
  title: string | null;
  party_name: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  custom_headers: Json<Record<string, string>>;
  custom_query: Json<Record<string, string | number | boolean>>;
  custom_body: NullableJson;
  overrides: Json<Record<string, unknown>>;
  /** The stay windows watched instead of fixed dates (shared stayWindowsSchema); null: fixed dates. */
  stay_window: NullableJson<unknown[]>;
  watch_config: Json;
  polling_interval_seconds: number;
  next_due_at: NullableTimestamp;
  claimed_until: NullableTimestamp;
  last_run_at: NullableTimestamp;
  last_notified_at: NullableTimestamp;
  last_completed_at: NullableTimestamp;
  last_matched: ColumnType<boolean, boolean | undefined, boolean>;
  last_values: NullableJson<Record<string, unknown>>;
  last_status_code: number | null;
  last_error: string | null;
  consecutive_errors: ColumnType<number, number | undefined, number>;
  /** The engine worker holding the claim (engine_workers.id), and which claim it is. */
  claimed_by: string | null;
  claim_token: string | null;
  /** When polling last (re)started: the base of the staleness flag. */
  active_since: Timestamp;
  /** Set while status is ARCHIVED (a trigger keeps both right): when, and the status to restore. */
  archived_at: NullableTimestamp;
  archived_from_status: string | null;
  /** When the match state last flipped (set by a trigger). */
  availability_changed_at: NullableTimestamp;
  urgent: ColumnType<boolean, boolean | undefined, boolean>;
  /** No deliveries are made for its notifications until then. */
  snoozed_until: NullableTimestamp;
  /** The last "Check now": the base of its rate limit. */
  check_requested_at: NullableTimestamp;
  /** The status to restore when a disabled account is enabled again (the alert is DISABLED meanwhile). */
  suspended_from_status: string | null;
  /** Health (shared alertHealths), the poll class behind it and since when (migration 0017). */
  health: ColumnType<string, string | undefined, string>;
  health_cause: string | null;
  health_since: NullableTimestamp;
  /** The last poll whose answer the rules could read (matched or not). */
  last_success_at: NullableTimestamp;
  /** Answers in a row without a rule's path. */
  drift_count: ColumnType<number, number | undefined, number>;
  /**
   * The kept answer (migration 0022; read as the view `alert_answers`): its JSON text (null when larger
   * than kept), size, digest (an answer with the same one is not written again), the values kept before
   * it, its status code and when it came. Set by the engine's write-back only.
   */
  answer: NullableJson;
  answer_bytes: number | null;
  answer_hash: string | null;
  answer_previous_values: NullableJson<Record<string, unknown>>;
  answer_status_code: number | null;
  answer_received_at: NullableTimestamp;
  /** The health the owner was last told of: healthy, failing or drifted. */
  health_told: ColumnType<string, string | undefined, string>;
  /**
   * The alert's newest poll records (`poll_record[]`, migration 0026), read through the view
   * `poll_runs`; the engine's write-back appends to it and moves it to `poll_blocks`.
   */
  recent_polls: ColumnType<string | null, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WatchlistsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  resort_code: string | null;
  quarter: string | null;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WatchlistAlertsTable {
  watchlist_id: string;
  alert_id: string;
  created_at: Timestamp;
}

export interface AlertNotificationServicesTable {
  alert_id: string;
  notification_service_id: string;
  created_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  alert_id: string | null;
  event_key: string;
  kind: ColumnType<string, string | undefined, string>;
  message: string;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface NotificationDeliveriesTable {
  id: Generated<string>;
  notification_id: string;
  notification_service_id: string;
  user_id: string;
  status: ColumnType<'PENDING' | 'SUCCESS' | 'FAILURE', 'PENDING' | 'SUCCESS' | 'FAILURE' | undefined>;
  attempts: ColumnType<number, number | undefined, number>;
  error: string | null;
  next_attempt_at: NullableTimestamp;
  dispatched_at: NullableTimestamp;
  /** Where it goes (delivery_destination(): a webhook's origin, `smtp`, `sms`), for per-destination caps. */
  destination: ColumnType<string, string | undefined, string>;
  claim_token: string | null;
  claimed_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProxiesTable {
  id: Generated<string>;
  host: string;
  port: number;
  protocol: ColumnType<'http' | 'https' | 'socks5', 'http' | 'https' | 'socks5' | undefined>;
  username: string | null;
  password: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  success_count: ColumnType<number, number | undefined, number>;
  failure_count: ColumnType<number, number | undefined, number>;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  last_attempt_at: NullableTimestamp;
  last_successful_at: NullableTimestamp;
  last_successful_url: string | null;
  last_failure_at: NullableTimestamp;
  last_failure_reason: string | null;
  auto_disabled_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Poll records written together (migration 0026), read through the view `poll_runs`. */
export interface PollBlocksTable {
  id: Generated<string>;
  alert_id: string;
  first_at: Timestamp;
  last_at: Timestamp;
  polls: string;
}

/**
 * A view (migration 0026) over `poll_blocks` and `alerts.recent_polls`, one row a poll; an insert
 * stores the row as a block of one poll.
 */
export interface PollRunsTable {
  id: Generated<string>;
  alert_id: string;
  proxy_id: string | null;
  due_at: Timestamp;
  started_at: Timestamp;
  finished_at: Timestamp;
  lateness_ms: number;
  duration_ms: number;
  status_code: number | null;
  ok: boolean;
  matched: boolean | null;
  notified: ColumnType<boolean, boolean | undefined, boolean>;
  error: string | null;
  worker_id: string | null;
  /** The number the alert page's timeline plots (shared `watchedValue`). */
  watched_value: number | null;
  /** Not sent: the host asked us to wait or its queue was full (not the alert's failure). */
  deferred: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the poll saw (shared pollClasses); null on runs written before migration 0017. */
  poll_class: string | null;
  created_at: Timestamp;
  /** The transaction that last wrote the row holding the record (the alert row or its block). */
  xmin: ColumnType<string, never, never>;
  /**
   * The oldest and newest poll of the block holding the record (-infinity and infinity on the alert
   * row): bounds that let a read in time skip blocks.
   */
  block_first_at: ColumnType<Date, never, never>;
  block_last_at: ColumnType<Date, never, never>;
}

/** The last upstream answer of each alert, and the values kept before it (changed/not_changed). */
/** A view over the alert row's kept answer (migration 0022). */
export interface AlertAnswersTable {
  alert_id: string;
  /** null when the answer was larger than the engine keeps. */
  answer: NullableJson;
  answer_bytes: number;
  /** A digest of the answer's JSON text: an answer with the same one is not written again. */
  answer_hash: string | null;
  previous_values: NullableJson<Record<string, unknown>>;
  status_code: number | null;
  received_at: Timestamp;
  created_at: Timestamp;
}

/** Notification, delivery and status events per user, kept for a day so a browser can resume. */
export interface LiveEventsTable {
  id: Generated<string>;
  user_id: string;
  alert_id: string | null;
  kind: string;
  payload: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

/** One row per running engine worker; a worker past its `live_until` is gone. */
export interface EngineWorkersTable {
  id: string;
  hostname: string;
  pid: number;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
  /** The deadline its last beat announced: live until then (migration 0024). */
  live_until: Timestamp;
  created_at: Timestamp;
  /** The backend of the worker's own session: gone from pg_stat_activity means the worker is gone. */
  session_pid: number | null;
  session_started: Date | null;
}

export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  scope: 'read-only' | 'read-write';
  token_hash: string;
  display_prefix: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Timestamp;
}

export interface AppSettingsTable {
  name: string;
  value: Json;
  updated_at: Timestamp;
}

export interface InvitationsTable {
  id: Generated<string>;
  token_hash: string;
  role: 'user' | 'admin';
  email: string | null;
  created_by: string | null;
  expires_at: Date;
  used_at: Date | null;
  used_by: string | null;
  revoked_at: Date | null;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  emailed: ColumnType<boolean, boolean | undefined, boolean>;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  refresh_sessions: RefreshSessionsTable;
  app_secrets: AppSecretsTable;
  template_groups: TemplateGroupsTable;
  templates: TemplatesTable;
  notification_services: NotificationServicesTable;
  alerts: AlertsTable;
  alert_notification_services: AlertNotificationServicesTable;
  notifications: NotificationsTable;
  notification_deliveries: NotificationDeliveriesTable;
  proxies: ProxiesTable;
  poll_runs: PollRunsTable;
  poll_blocks: PollBlocksTable;
  engine_workers: EngineWorkersTable;
  api_tokens: ApiTokensTable;
  watchlists: WatchlistsTable;
  watchlist_alerts: WatchlistAlertsTable;
  alert_answers: AlertAnswersTable;
  live_events: LiveEventsTable;
  app_settings: AppSettingsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type TemplateGroupRow = Selectable<TemplateGroupsTable>;
/** A row of `alerts` (the API's list row is shared's `AlertRow`). */
export type AlertRecord = Selectable<AlertsTable>;
export type NotificationServiceRow = Selectable<NotificationServicesTable>;
export type ProxyRow = Selectable<ProxiesTable>;
