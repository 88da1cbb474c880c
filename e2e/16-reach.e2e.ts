import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, dayFromToday, seedTemplate, tokenOf } from './helpers/api.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * This machine reaches no push service, so PushManager.subscribe cannot register with one: the page
 * gets a subscription of its own making instead — real P-256 keys from WebCrypto and an endpoint on
 * the journeys' loopback receiver — and the push message reaches the service worker through the
 * DevTools protocol (ServiceWorker.deliverPushMessage), as a push service would deliver it.
 */
function offlinePushService(endpoint: string): string {
  // In-page code (this project's Node types know no DOM): a string the page runs before the app.
  return `(() => {
    const b64 = (bytes) => btoa(String.fromCharCode(...bytes))
      .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    PushManager.prototype.subscribe = async () => {
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      const endpoint = ${JSON.stringify(endpoint)};
      const json = {
        endpoint,
        expirationTime: null,
        keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) },
      };
      window.__subscription = { endpoint, toJSON: () => json, unsubscribe: async () => true };
      return window.__subscription;
    };
    PushManager.prototype.getSubscription = async () => window.__subscription ?? null;
  })();`;
}

/** The notifications the service worker shows now, read in the page. */
const shownNotifications = `navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))`;

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: { path: string };
}

test('the app is installable, push is turned on in Settings and a push shows the alert as a notification', async () => {
  const template = await seedTemplate('Reach resort');
  const planner = await createAccount('Reach', ['user']);
  const token = await tokenOf(planner);
  const alert = await api<{ id: string }>(token, 'POST', '/registrations', {
    templateId: template.id,
    title: 'Spring break',
    partyName: 'Garcia family',
    overrides: { query: { checkIn: dayFromToday(40), checkOut: dayFromToday(44) } },
    // A rule that never holds: the engine sends nothing on its own during the journey.
    watchConfig: { any: [{ path: 'rooms[*].price', operator: 'lt', value: 0, presetId: 'price' }] },
    pollingIntervalSeconds: 3600,
  });

  const baseUrl = inject('baseUrl');
  const journey = await startJourney(browser, baseUrl);
  const { page, context } = journey;
  await context.grantPermissions(['notifications'], { origin: baseUrl });
  await context.addInitScript({
    content: offlinePushService(`${inject('receiverUrl')}/push/${planner.tag}`),
  });
  await signIn(page, planner, '/settings');

  // Installable: the manifest is linked and served, and the service worker is registered for the app.
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await fetch(new URL(manifestHref!, baseUrl))).json()) as {
    icons: { sizes: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Resort Alerts', start_url: '/', display: 'standalone' });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
  const scriptUrl = await page.evaluate<string>(
    'navigator.serviceWorker.ready.then((r) => r.active.scriptURL)',
  );
  expect(scriptUrl).toBe(`${baseUrl}/sw.js`);

  // Push turned on in Settings: this browser becomes a WEB_PUSH service, listed with the others.
  const section = page.getByRole('region', { name: 'Notification services' });
  await section.getByRole('button', { name: 'Turn on push in this browser' }).click();
  await section.getByText('Push turned on in this browser.').waitFor();
  await section.getByText('Push is on in this browser: alerts reach it even with the app closed.').waitFor();
  await section.getByRole('listitem').filter({ hasText: 'Chrome on Linux' }).waitFor();
  const stored = await query<{ type: string; endpoint: string }>(
    `SELECT s.type, s.config->>'endpoint' AS endpoint FROM notification_services s
       JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.type = 'WEB_PUSH'`,
    [planner.email],
  );
  expect(stored).toEqual([{ type: 'WEB_PUSH', endpoint: `${inject('receiverUrl')}/push/${planner.tag}` }]);

  // A push message, as the server sends it, delivered to the service worker by the DevTools protocol.
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${baseUrl}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseUrl,
    registrationId: await registrationId,
    data: JSON.stringify({
      title: 'Spring break',
      body: 'Alert "Spring break" matched (Reach resort, party Garcia family): 2 rooms available at $689.',
      url: `${baseUrl}/alerts/${alert.id}`,
      path: `/alerts/${alert.id}`,
      tag: alert.id,
      urgent: false,
    }),
  });
  const shown = () => page.evaluate<ShownNotification[]>(shownNotifications);
  await expect.poll(async () => (await shown()).length, { timeout: 10_000 }).toBe(1);
  const [notification] = await shown();
  expect(notification).toEqual({
    title: 'Spring break',
    body: expect.stringContaining('2 rooms available at $689'),
    tag: alert.id,
    data: { path: `/alerts/${alert.id}` },
  });
  // A tap on it: the DevTools protocol cannot click a system notification, so the service worker
  // receives the same notificationclick event it would, and the app's open tab goes to the alert.
  const [worker] = context.serviceWorkers();
  expect(worker).toBeDefined();
  await worker!.evaluate(async () => {
    const sw = globalThis as unknown as {
      registration: { getNotifications(): Promise<unknown[]> };
      dispatchEvent(event: unknown): boolean;
      NotificationEvent: new (type: string, init: { notification: unknown }) => unknown;
    };
    const [shownNotification] = await sw.registration.getNotifications();
    sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: shownNotification }));
  });
  await page.waitForURL((url) => url.pathname === notification!.data.path);
  await page
    .getByRole('heading', { name: /Spring break/ })
    .first()
    .waitFor();

  expect(journey.errors).toEqual([]);
  await journey.close();
});
