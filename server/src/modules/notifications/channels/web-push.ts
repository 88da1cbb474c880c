import { notificationMessages, renderPush, type WebPushConfig } from '@resort/shared';
import webPush from 'web-push';
import type { VapidKeys } from '../vapid-keys.ts';
import { sendHttp } from './http-answer.ts';
import { modelOf } from './message-model.ts';
import type { NativeChannelDeps } from './native.ts';
import { type ChannelMessage, type ChannelSender, type ChannelTarget, DeliveryError } from './types.ts';

/** How long a push service keeps an undelivered message: an opening lasts minutes, not days. */
const PUSH_TTL_SECONDS = 15 * 60;

/**
 * WEB_PUSH: the Web Push protocol to the browser's push service. The `web-push` library builds the
 * request (payload encrypted for the subscription per RFC 8291, aes128gcm; a VAPID authorization per
 * RFC 8292; TTL and Urgency of RFC 8030); it is sent through the guarded outbound client. A 404 or
 * 410 means the subscription has expired: the service is removed.
 */
export function createWebPushSender(
  deps: NativeChannelDeps & { vapid: VapidKeys; subject: string },
): ChannelSender {
  return {
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
      const request = webPush.generateRequestDetails(
        { endpoint: config.endpoint, keys: { p256dh: config.p256dh, auth: config.auth } },
        payload,
        {
          vapidDetails: {
            subject: deps.subject,
            publicKey: deps.vapid.publicKey,
            privateKey: deps.vapid.privateKey,
          },
          TTL: PUSH_TTL_SECONDS,
          urgency: message.urgent ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
        },
      );
      const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
      for (const [name, value] of Object.entries(request.headers))
        headers[name.toLowerCase()] = String(value);
      try {
        await sendHttp(
          deps.outbound,
          {
            url: request.endpoint,
            method: request.method,
            headers,
            ...(request.body ? { body: new Uint8Array(request.body) } : {}),
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
