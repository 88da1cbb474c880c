import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, NewUser, UserRow, UserUpdate } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The roles of an account that may act now: none when it is gone or disabled, or when the
 * presented access token was issued before its tokens were revoked (`issuedAtMs`).
 */
export async function findUserRoles(db: Db, id: string, issuedAtMs?: number): Promise<string[] | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['roles', 'disabled_at', 'tokens_valid_after'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.disabled_at) return undefined;
  if (issuedAtMs !== undefined && row.tokens_valid_after && issuedAtMs < row.tokens_valid_after.getTime())
    return undefined;
  return row.roles;
}

export function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(db: Db, id: string, patch: UserUpdate): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids of the enabled accounts with an admin role (admin or super_admin). */
export async function listAdminIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(sql<boolean>`roles && ARRAY['admin', 'super_admin']::text[]`)
    .where('disabled_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}
