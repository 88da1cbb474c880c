/** Web Push in this browser: support, the current subscription, and subscribing (pure browser calls). */
export function webPushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** A short name for this browser, e.g. "Chrome on Linux", so the planner can tell subscriptions apart. */
export function browserName(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'this device';
  return `${browser} on ${os}`;
}

export interface SubscriptionConfig {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Asks for permission and subscribes this browser with the server's VAPID key. Answers the
 * subscription's config, or a reason it could not be made.
 */
export async function subscribeThisBrowser(
  publicKey: string,
): Promise<{ ok: true; config: SubscriptionConfig } | { ok: false; reason: string }> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    return { ok: false, reason: 'Notifications are blocked for this site in the browser settings.' };
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth)
    return { ok: false, reason: 'The browser gave no usable push subscription.' };
  return { ok: true, config: { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth } };
}
