/**
 * Status labels shown by the client (SPEC.md §4). Kept here so every screen and any server text
 * that names a status use the same words.
 */
export const alertStatuses = [
  'ACTIVE',
  'FIRING',
  'BOOKED',
  'PASSED',
  'DISABLED',
  'INACTIVE',
  'ERROR',
] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/** The statuses a user (or an admin) may set from the alert lists' row menu, at any time. */
export const settableAlertStatuses = ['ACTIVE', 'BOOKED', 'PASSED'] as const;
export type SettableAlertStatus = (typeof settableAlertStatuses)[number];

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

export const deliveryStatusLabels = {
  PENDING: 'Pending dispatch',
  SUCCESS: 'Delivered',
  FAILURE: 'Failed',
} as const;

export function deliveryStatusLabel(status: string): string {
  return deliveryStatusLabels[status as keyof typeof deliveryStatusLabels] ?? prettifyStatus(status);
}
