import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

/** The account's e-mail address, when the account has proved it reads it. */
export async function findVerifiedAccountEmail(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select(['email', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.email_verified_at ? row.email : null;
}

export async function storeCode(db: Db, id: string, codeHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('notification_services')
    .set({ verification_code_hash: codeHash, verification_expires_at: expiresAt, verification_attempts: 0 })
    .where('id', '=', id)
    .execute();
}

/** Counts one attempt at the code; answers the stored code while it may still be tried. */
export async function takeCodeAttempt(db: Db, id: string, userId: string, maxAttempts: number) {
  return db
    .updateTable('notification_services')
    .set((eb) => ({ verification_attempts: eb('verification_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('verification_code_hash', 'is not', null)
    .where('verification_attempts', '<', maxAttempts)
    .where('verification_expires_at', '>', databaseNow)
    .returning(['verification_code_hash', 'type', 'config'])
    .executeTakeFirst();
}

export async function markVerified(db: Db, id: string, via: 'code' | 'account'): Promise<void> {
  await db
    .updateTable('notification_services')
    .set({
      verified_at: databaseNow,
      verified_via: via,
      verification_code_hash: null,
      verification_expires_at: null,
      verification_attempts: 0,
      updated_at: databaseNow,
    })
    .where('id', '=', id)
    .execute();
}

/** Verification belongs to a destination: a changed address or number starts unverified again. */
export async function clearVerification(db: Db, id: string): Promise<void> {
  await db
    .updateTable('notification_services')
    .set({
      verified_at: null,
      verified_via: null,
      verification_code_hash: null,
      verification_expires_at: null,
    })
    .where('id', '=', id)
    .execute();
}

/** Once the account's address is verified, so is every e-mail channel of the account that sends to it. */
export async function verifyAccountEmailChannels(db: Db, userId: string): Promise<void> {
  await sql`
    UPDATE notification_services s SET verified_at = now(), verified_via = 'account',
      verification_code_hash = NULL, verification_expires_at = NULL
    FROM users u
    WHERE s.user_id = ${userId} AND u.id = s.user_id AND s.type = 'EMAIL'
      AND lower(s.config->>'toEmail') = lower(u.email) AND u.email_verified_at IS NOT NULL
      AND (s.verified_at IS NULL OR s.verified_via = 'existing')`.execute(db);
}

export async function markAccountEmailVerified(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: databaseNow })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Whether a delivery's channel may be sent to: verified, or of a type that needs no verification. */
export async function findServiceVerification(db: Db, id: string) {
  return db
    .selectFrom('notification_services')
    .select(['type', 'verified_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
