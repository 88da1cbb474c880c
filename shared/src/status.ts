import type { userSettableStatuses } from './alert.schema.ts';

/**
 * Status labels shown by the client (docs/product.md, "Statuses"). The status lists themselves live with their
 * domains: alertStatuses and userSettableStatuses in alert.schema.ts,
 * dispatchStatusLabels in notification-service.schema.ts.
 */
export type SettableAlertStatus = (typeof userSettableStatuses)[number];

/** 'NEEDS_REVIEW' → 'Needs Review'. */
export function prettifyStatus(status: string): string {
  return status
    .split('_')
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

/** ACTIVE and FIRING both read 'Enabled'; every other status is prettified. */
export function alertStatusLabel(status: string): string {
  return status === 'ACTIVE' || status === 'FIRING' ? 'Enabled' : prettifyStatus(status);
}
