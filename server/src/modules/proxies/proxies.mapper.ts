import { isAutoDisabled, type WebProxy } from '@resort/shared';
import type { ProxyRow } from '../../db/types.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A proxy as admins see it: its fields plus the auto-disabled flag. */
export function toWebProxy(row: ProxyRow): WebProxy {
  const proxy = {
    id: row.id,
    host: row.host,
    port: row.port,
    protocol: row.protocol,
    username: row.username,
    password: row.password,
    isActive: row.is_active,
    successCount: row.success_count,
    failureCount: row.failure_count,
    consecutiveFailures: row.consecutive_failures,
    lastAttemptAt: iso(row.last_attempt_at),
    lastSuccessfulAt: iso(row.last_successful_at),
    lastSuccessfulUrl: row.last_successful_url,
    lastFailureAt: iso(row.last_failure_at),
    lastFailureReason: row.last_failure_reason,
  };
  return { ...proxy, autoDisabled: isAutoDisabled(proxy) };
}
