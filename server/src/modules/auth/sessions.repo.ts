import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

export function insertSession(
  db: Db,
  s: {
    userId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
    absoluteExpiresAt: Date;
    userAgent?: string | undefined;
    ip?: string | undefined;
  },
) {
  return db
    .insertInto('refresh_sessions')
    .values({
      user_id: s.userId,
      family_id: s.familyId,
      token_hash: s.tokenHash,
      expires_at: s.expiresAt,
      absolute_expires_at: s.absoluteExpiresAt,
      user_agent: s.userAgent ?? null,
      ip: s.ip ?? null,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/** Locks the row so two refreshes with one token cannot both rotate it. */
export function findSessionForUpdate(db: Transaction<DB>, tokenHash: string) {
  return db
    .selectFrom('refresh_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

export function markSessionUsed(db: Db, id: string, at: Date) {
  return db.updateTable('refresh_sessions').set({ used_at: at }).where('id', '=', id).execute();
}

export function revokeFamily(db: Db, familyId: string, at: Date) {
  return db
    .updateTable('refresh_sessions')
    .set({ revoked_at: at })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function revokeUserSessions(db: Db, userId: string, at: Date, exceptFamilyId?: string) {
  let q = db
    .updateTable('refresh_sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptFamilyId) q = q.where('family_id', '!=', exceptFamilyId);
  return q.execute();
}

export function findSessionByHash(db: Db, tokenHash: string) {
  return db.selectFrom('refresh_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}
