import type { NotificationServiceConfig, NotificationServiceType } from '@resort/shared';
import { storableText } from '../../../platform/storable.ts';

/** What a channel sends: one notification (or a test), with what its templates and texts need. */
export interface ChannelMessage {
  /** Stable across the retries of one delivery (webhook-id, e-mail Message-ID), so receivers can de-duplicate. */
  id: string;
  message: string;
  alertId: string | null;
  templateId: string | null;
  /** The alert's title or party name, for subjects and headings. */
  title: string | null;
  partyName: string | null;
  /** Always carries `timestamp` (ISO 8601): the moment of the event. */
  metadata: Record<string, unknown> & { timestamp: string };
  test: boolean;
  /** The alert is marked urgent: channels use their high priority (ntfy 5, Pushover emergency). */
  urgent: boolean;
}

/** The channel a message goes to: a saved service, or the unsaved form of a test send. */
export interface ChannelTarget {
  type: NotificationServiceType;
  label: string | null;
  config: NotificationServiceConfig;
  signingSecret: string;
}

export interface SendResult {
  /** Something the user should know about a success (e.g. "written to the log"), else null. */
  note: string | null;
}

export interface ChannelSender {
  send(target: ChannelTarget, message: ChannelMessage): Promise<SendResult>;
}

/**
 * A failed send. The message is shown to the user (history, test answer), so it says what the
 * receiver did in plain words and carries no secrets. It quotes receivers, SMTP servers and SMS
 * providers, so it is made storable here, where their bytes enter (docs/decisions.md, "Storable text").
 */
export class DeliveryError extends Error {
  /** Retrying cannot help (a refused address, a 410): the delivery fails now. */
  readonly permanent: boolean;
  /** The receiver asked us to wait this long (429 Retry-After). */
  readonly retryAfterSeconds: number | null;
  /** Set when the service must be deactivated, with the reason to record. */
  readonly deactivateReason: string | null;
  /** The service is gone for good (a push subscription the push service answered 404/410 for): delete it. */
  readonly removeService: boolean;
  /** The receiver's HTTP status, when it answered. */
  readonly status: number | null;
  /** The destination itself is unacceptable (blocked or invalid URL), not the receiver's answer. */
  readonly badDestination: boolean;

  constructor(
    message: string,
    options: {
      permanent?: boolean;
      retryAfterSeconds?: number | null;
      deactivateReason?: string | null;
      removeService?: boolean;
      status?: number;
      badDestination?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(storableText(message), { cause: options.cause });
    this.name = 'DeliveryError';
    this.permanent = options.permanent ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.deactivateReason = options.deactivateReason == null ? null : storableText(options.deactivateReason);
    this.removeService = options.removeService ?? false;
    this.status = options.status ?? null;
    this.badDestination = options.badDestination ?? false;
  }
}
