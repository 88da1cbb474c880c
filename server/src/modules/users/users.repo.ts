import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, NewUser, UserRow, UserUpdate } from '../../db/types.ts';
import type { AccountState } from './account-cache.ts';

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

/** What the authenticated rungs check of an account (account-cache.ts): roles, disabled, token cut-off. */
export async function findAccountState(db: Db, id: string): Promise<AccountState | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['roles', 'disabled_at', 'tokens_valid_after'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    roles: row.roles,
    disabled: row.disabled_at !== null,
    tokensValidAfterMs: row.tokens_valid_after?.getTime() ?? null,
  };
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
