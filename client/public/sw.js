/*
 * The service worker of Resort Alerts: shows a push message as a notification (the alert's name and
 * what opened) and opens the alert's page when it is tapped, even with no tab of the app open.
 */
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

function readPush(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

self.addEventListener('push', (event) => {
  const data = readPush(event);
  const title = data.title || 'Resort Alerts';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      tag: data.tag || undefined,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      // An urgent alert stays on screen until the planner acts on it.
      requireInteraction: Boolean(data.urgent),
      data: { path: data.path || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.path || '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const showing = windows.find((client) => client.url === target);
      if (showing) return showing.focus();
      // A tab of the app already open goes to the alert and comes forward; else a new one opens.
      const open = windows.find((client) => 'navigate' in client);
      const moved = open ? await open.navigate(target).catch(() => null) : null;
      if (moved) return moved.focus().catch(() => moved);
      return self.clients.openWindow(target);
    })(),
  );
});
