import { notifications } from '@mantine/notifications';
import { toastMs } from '@resort/shared';

/** Toasts of the local views last 3 seconds (SPEC.md §9). */
export function toast(message: string, tone: 'success' | 'error' = 'success') {
  notifications.show({ message, color: tone === 'success' ? 'teal' : 'red', autoClose: toastMs });
}
