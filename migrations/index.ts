import type { Migration } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0006 from './0006_engine.ts';
import * as m0007 from './0007_delivery_outbox.ts';
import * as m0008 from './0008_api_tokens.ts';
import * as m0009 from './0009_security.ts';
import * as m0010 from './0010_watchlists.ts';
import * as m0011 from './0011_alert_insight.ts';
import * as m0012 from './0012_notification_kind.ts';
import * as m0013 from './0013_alert_vocabulary.ts';
import * as m0014 from './0014_retention.ts';
import * as m0015 from './0015_poll_records.ts';
import * as m0016 from './0016_accounts.ts';
import * as m0017 from './0017_alert_health.ts';
import * as m0018 from './0018_stay_windows.ts';
import * as m0019 from './0019_native_channels.ts';
import * as m0020 from './0020_worker_sessions.ts';
import * as m0021 from './0021_account_notify.ts';
import * as m0022 from './0022_kept_answer_on_alert.ts';
import * as m0023 from './0023_alerts_due_wake_up.ts';
import * as m0024 from './0024_worker_deadline.ts';
import * as m0025 from './0025_release_moved_reservations.ts';
import * as m0026 from './0026_poll_blocks.ts';
import * as m0027 from './0027_untold_health_estimate.ts';

/** Every migration, in order. Add new ones here as 0002_..., never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0006_engine': m0006,
  '0007_delivery_outbox': m0007,
  '0008_api_tokens': m0008,
  '0009_security': m0009,
  '0010_watchlists': m0010,
  '0011_alert_insight': m0011,
  '0012_notification_kind': m0012,
  '0013_alert_vocabulary': m0013,
  '0014_retention': m0014,
  '0015_poll_records': m0015,
  '0016_accounts': m0016,
  '0017_alert_health': m0017,
  '0018_stay_windows': m0018,
  '0019_native_channels': m0019,
  '0020_worker_sessions': m0020,
  '0021_account_notify': m0021,
  '0022_kept_answer_on_alert': m0022,
  '0023_alerts_due_wake_up': m0023,
  '0024_worker_deadline': m0024,
  '0025_release_moved_reservations': m0025,
  '0026_poll_blocks': m0026,
  '0027_untold_health_estimate': m0027,
};
