/**
 * Registers the service worker (client/public/sw.js): it shows push messages as notifications and
 * opens the alert's page when one is tapped, with or without a tab of the app open. With the web app
 * manifest it also makes the app installable.
 */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // No service worker (an insecure origin, a private window): the app works without push.
  });
}
