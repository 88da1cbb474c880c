import { type AlertMessage, alertMessageOf } from '@resort/shared';
import type { ChannelMessage } from './types.ts';

/** The one message model of a delivery (shared/src/alert-message.ts), which every channel renders. */
export function modelOf(message: ChannelMessage, publicUrl: string | undefined): AlertMessage {
  return alertMessageOf({
    message: message.message,
    title: message.title,
    partyName: message.partyName,
    alertId: message.alertId,
    timestamp: message.metadata.timestamp,
    test: message.test,
    urgent: message.urgent,
    publicUrl,
  });
}
