import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

export function insertInvitation(
  db: Db,
  v: { tokenHash: string; role: 'user' | 'admin'; email: string | null; createdBy: string; expiresAt: Date },
) {
  return db
    .insertInto('invitations')
    .values({
      token_hash: v.tokenHash,
      role: v.role,
      email: v.email,
      created_by: v.createdBy,
      expires_at: v.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listInvitations(db: Db, limit: number) {
  return db.selectFrom('invitations').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
}

/** An invitation that can still be used, locked when inside a transaction that will use it. */
export function findUsableInvitation(db: Db, tokenHash: string, now: Date, lock: boolean) {
  let q = db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function markInvitationUsed(db: Db, id: string, userId: string, at: Date) {
  await db.updateTable('invitations').set({ used_at: at, used_by: userId }).where('id', '=', id).execute();
}

export async function revokeInvitation(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function insertPasswordReset(
  db: Db,
  v: { userId: string; tokenHash: string; expiresAt: Date; emailed: boolean },
) {
  return db
    .insertInto('password_resets')
    .values({ user_id: v.userId, token_hash: v.tokenHash, expires_at: v.expiresAt, emailed: v.emailed })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes a usable reset link: marks it used in the same statement, so it works once. */
export function consumePasswordReset(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/** A new link replaces the account's earlier ones. */
export async function retirePasswordResets(db: Db, userId: string, now: Date) {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
