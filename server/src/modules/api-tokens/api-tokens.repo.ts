import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { ApiTokensTable, DB } from '../../db/types.ts';

const listed = ['id', 'name', 'scope', 'display_prefix', 'expires_at', 'created_at', 'last_used_at'] as const;

export function insertApiToken(db: Database, row: Insertable<ApiTokensTable>) {
  return db.insertInto('api_tokens').values(row).returning(listed).executeTakeFirstOrThrow();
}

export function listApiTokens(db: Database, userId: string) {
  return db
    .selectFrom('api_tokens')
    .select(listed)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function countLiveApiTokens(db: Database, userId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeApiToken(db: Database, userId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every live token of the account (a disable, a password reset, inside the caller's transaction). */
export async function revokeAllApiTokens(db: Database | Transaction<DB>, userId: string, now: Date) {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The token's row with its owner's roles as stored now. */
export function findApiTokenByHash(db: Database, tokenHash: string) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.scope',
      'api_tokens.expires_at',
      'api_tokens.revoked_at',
      'api_tokens.last_used_at',
      'users.roles',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchApiToken(db: Database, id: string, now: Date): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}
