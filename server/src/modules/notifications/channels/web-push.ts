import { notificationMessages, renderPush, type WebPushConfig } from '@resort/shared';
import webPush from 'web-push';
import type { VapidKeys } from '../vapid-keys.ts';
import { sendHttp } from './http-answer.ts';
import { modelOf } from './message-model.ts';
import type { NativeChannelDeps } from './native.ts';
import { type BrowserKeys, createPushSealer, type ReserveCount } from './push-sealer.ts';
import { type ChannelMessage, type ChannelSender, type ChannelTarget, DeliveryError } from './types.ts';

/** How long a push service keeps an undelivered message: an opening lasts minutes, not days. */
const PUSH_TTL_SECONDS = 15 * 60;
/** A VAPID authorization's life (RFC 8292 allows up to 24 h); renewed in its last hour. */
const VAPID_LIFE_SECONDS = 12 * 3600;
const VAPID_RENEW_SECONDS = 3600;
/** Push services signed for at once (a handful in practice: one per browser vendor). */
const VAPID_AUDIENCES = 64;

/**
 * The VAPID authorization for a push service, signed once per service and reused until near its
 * expiry rather than signed for every message (the signature was two fifths of a push's CPU).
 */
function vapidAuthorizations(vapid: VapidKeys, subject: string, now: () => Date) {
  const signed = new Map<string, { authorization: string; expiresAt: number }>();
  return (endpoint: string): string => {
    const audience = new URL(endpoint).origin;
    const nowSeconds = Math.floor(now().getTime() / 1000);
    const kept = signed.get(audience);
    if (kept && kept.expiresAt - nowSeconds > VAPID_RENEW_SECONDS) return kept.authorization;
    const expiresAt = nowSeconds + VAPID_LIFE_SECONDS;
    const { Authorization } = webPush.getVapidHeaders(
      audience,
      subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    );
    if (signed.size >= VAPID_AUDIENCES) signed.clear();
    signed.set(audience, { authorization: Authorization, expiresAt });
    return Authorization;
  };
}

/**
 * WEB_PUSH: the Web Push protocol to the browser's push service. The push sealer encrypts the payload
 * for the subscription per RFC 8291 (aes128gcm), with message keys its threads prepare ahead for each
 * browser, or whole in a thread with the `http_ece` library when none is ready; the VAPID
 * authorization (RFC 8292) comes from the `web-push` library, signed once per push service and
 * reused; TTL and Urgency are RFC 8030's. The request is sent through the guarded outbound client. A
 * 404 or 410 means the subscription has expired: the service is removed.
 */
export function createWebPushSender(
  deps: NativeChannelDeps & { vapid: VapidKeys; subject: string },
): ChannelSender & {
  start(): Promise<void>;
  prepare(browsers: readonly BrowserKeys[]): void;
  reserves(): ReserveCount;
  close(): Promise<void>;
} {
  const authorizationFor = vapidAuthorizations(deps.vapid, deps.subject, deps.now);
  const sealer = createPushSealer();
  return {
    start: () => sealer.start(),
    prepare: (browsers) => sealer.prepare(browsers),
    reserves: () => sealer.reserves(),
    close: () => sealer.close(),
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as WebPushConfig;
      const push = renderPush(modelOf(message, deps.publicUrl));
      const payload = JSON.stringify({
        ...push,
        // The alert's page on the app's own origin, for the service worker to open when tapped.
        path: message.alertId && !message.test ? `/alerts/${message.alertId}` : '/',
        // One notification per alert on the device: a newer opening replaces an older one.
        tag: message.alertId ?? message.id,
        urgent: message.urgent,
      });
      const request = await sealer.seal({
        endpoint: config.endpoint,
        keys: { p256dh: config.p256dh, auth: config.auth },
        payload,
        authorization: authorizationFor(config.endpoint),
        ttlSeconds: PUSH_TTL_SECONDS,
        urgency: message.urgent ? 'high' : 'normal',
      });
      try {
        await sendHttp(
          deps.outbound,
          {
            url: request.endpoint,
            method: request.method,
            headers: request.headers,
            body: request.body,
            timeoutMs: deps.timeoutMs,
          },
          'The push service',
          deps.now,
        );
      } catch (error) {
        if (error instanceof DeliveryError && (error.status === 404 || error.status === 410)) {
          throw new DeliveryError(error.message, {
            permanent: true,
            deactivateReason: notificationMessages.pushGone(error.status),
            removeService: true,
            status: error.status,
          });
        }
        throw error;
      }
      return { note: null };
    },
  };
}
