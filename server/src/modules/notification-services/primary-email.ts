import { authMessages } from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { newSigningSecret } from '../notifications/channels/signing.ts';

/**
 * Adds the account's e-mail as its EMAIL channel when it has none. The partial unique
 * index makes a race between two sign-ins harmless.
 */
export async function ensurePrimaryEmailService(db: Database, userId: string, email: string): Promise<void> {
  await db
    .insertInto('notification_services')
    .values({
      user_id: userId,
      type: 'EMAIL',
      label: authMessages.primaryEmailLabel,
      is_active: true,
      config: JSON.stringify({ toEmail: email }),
      signing_secret: newSigningSecret(),
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).where('type', 'in', ['EMAIL', 'SMS', 'WEBHOOK']).doNothing(),
    )
    .execute();
}
