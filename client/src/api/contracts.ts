import type { User } from '@resort/shared';
import type { NotificationServiceType } from '@resort/shared/notification-service.messages';

/**
 * The shapes of SPEC.md §3 the screens read. Procedures that already exist are typed by the server's
 * router; these describe the ones still being built, so a screen compiles against the contract and
 * switching an adapter to the real procedure changes one line.
 */
type QueryMap = Record<string, unknown>;

export interface AlertRecord {
  id: string;
  status: string;
  title?: string | null;
  templateId: string;
  template?: {
    name: string;
    defaultBody?: unknown;
    defaultQuery?: QueryMap | null;
    templateGroupId?: string | null;
  } | null;
  partyName?: string | null;
  tags?: string[] | null;
  user?: { email: string; name: string | null } | null;
  query?: QueryMap | null;
  customHeaders?: Record<string, string> | null;
  customQuery?: QueryMap | null;
  customBody?: unknown;
  overrides?: { body?: unknown; query?: QueryMap | null } | null;
  pollingIntervalSeconds?: number;
  notificationServices?: { notificationServiceId: string }[] | null;
  lastRunAt?: string | null;
  lastNotifiedAt?: string | null;
}

export interface NotificationServiceRecord {
  id: string;
  type: NotificationServiceType;
  label: string | null;
  isActive: boolean;
  config: Record<string, unknown>;
}

export interface NotificationServicePayload {
  type: NotificationServiceType;
  label?: string;
  config: Record<string, unknown>;
}

export interface NotificationRecord {
  id: string;
  notificationId: string;
  notificationServiceId: string;
  notificationService?: { type: NotificationServiceType; label: string | null } | null;
  registration?: {
    title: string | null;
    partyName: string | null;
    template?: { name: string } | null;
  } | null;
  message: string;
  error?: string | null;
  status: string;
  dispatchedAt?: string | null;
  createdAt: string;
}

export interface UserSummary {
  user: User;
  notificationServices: NotificationServiceRecord[];
  registrations: AlertRecord[];
}
