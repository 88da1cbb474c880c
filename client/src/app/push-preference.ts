/**
 * Whether the browser will show a notification now: the user's "Push notifications" preference
 * (Settings: on by default) is on and the browser granted permission.
 */
export function canNotify(pushPreference: boolean): boolean {
  return pushPreference && typeof Notification !== 'undefined' && Notification.permission === 'granted';
}
