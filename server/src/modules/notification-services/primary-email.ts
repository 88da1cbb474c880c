import { authMessages } from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import { newSigningSecret } from '../notifications/channels/signing.ts';
import { verifyAccountEmailChannels } from './verification.repo.ts';

/**
 * Adds the account's e-mail as its EMAIL channel when it has none. The partial unique
 * index makes a race between two sign-ins harmless. It counts as verified once the account's
 * address is (an e-mailed invitation or reset link, a code read there).
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
  await verifyAccountEmailChannels(db, userId);
}

/** The account's address was just verified: its e-mail channels to that address are too. */
export function syncAccountEmailChannels(db: Database | Transaction<DB>, userId: string): Promise<void> {
  return verifyAccountEmailChannels(db, userId);
}
