import { PROXY_AUTO_DISABLE_FAILURES } from '@resort/shared';
import { type Insertable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, ProxiesTable, ProxyRow } from '../../db/types.ts';
import { storableText } from '../../platform/storable.ts';

type Db = Database | Transaction<DB>;
type NewProxy = Insertable<ProxiesTable>;
export type ProxyPatch = Updateable<ProxiesTable>;

/** What the engine needs to send a request through a proxy (fits the outbound client's ProxyTarget). */
type ActiveProxy = Pick<ProxyRow, 'id' | 'protocol' | 'host' | 'port' | 'username' | 'password'>;

/** Rows per INSERT of an import: 8 parameters each stays far below PostgreSQL's 65,535. */
const IMPORT_CHUNK = 1000;
const MAX_REASON = 500;
const MAX_URL = 2048;

export function listProxies(db: Db): Promise<ProxyRow[]> {
  return db
    .selectFrom('proxies')
    .selectAll()
    .orderBy(sql`lower(host)`)
    .orderBy('port')
    .orderBy('protocol')
    .orderBy('id')
    .execute();
}

export function findProxy(db: Db, id: string): Promise<ProxyRow | undefined> {
  return db.selectFrom('proxies').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertProxy(db: Db, values: NewProxy): Promise<ProxyRow> {
  return db.insertInto('proxies').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateProxy(db: Db, id: string, patch: ProxyPatch): Promise<ProxyRow | undefined> {
  return db
    .updateTable('proxies')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteProxy(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('proxies').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export function resetProxyFailures(db: Db, id: string): Promise<ProxyRow | undefined> {
  return updateProxy(db, id, { failure_count: 0, consecutive_failures: 0, auto_disabled_at: null });
}

/** Sets the active flag of the given proxies, or of all when ids is undefined; answers how many changed. */
export async function setProxiesActive(db: Db, isActive: boolean, ids?: readonly string[]): Promise<number> {
  let query = db.updateTable('proxies').set({
    is_active: isActive,
    // Turning a proxy on again clears the automatic-disable mark; turning it off never sets it.
    ...(isActive ? { auto_disabled_at: null } : {}),
    updated_at: databaseNow,
  });
  if (ids) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Inserts an import's proxies; rows that collide with an existing proxy's identity (the unique index
 * on lower(host), port, protocol, username) are left out. Answers how many were created.
 */
export async function insertProxiesSkippingDuplicates(db: Db, rows: readonly NewProxy[]): Promise<number> {
  let created = 0;
  for (let i = 0; i < rows.length; i += IMPORT_CHUNK) {
    const inserted = await db
      .insertInto('proxies')
      .values(rows.slice(i, i + IMPORT_CHUNK))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    created += inserted.length;
  }
  return created;
}

/** One atomic UPDATE: concurrent workers never lose an increment. */
export async function recordProxySuccess(db: Db, proxyId: string, url: string): Promise<void> {
  await db
    .updateTable('proxies')
    .set((eb) => ({
      success_count: eb('success_count', '+', 1),
      consecutive_failures: 0,
      last_attempt_at: sql<Date>`now()`,
      last_successful_at: sql<Date>`now()`,
      last_successful_url: url.slice(0, MAX_URL),
      updated_at: databaseNow,
    }))
    .where('id', '=', proxyId)
    .execute();
}

/**
 * One atomic statement: counts the failure and, at the 5th consecutive one, disables the proxy.
 * The row lock taken first makes `deactivated` true for exactly the report that switched it off,
 * even when many workers report at once (READ COMMITTED re-reads the locked, latest row).
 */
export async function recordProxyFailure(
  db: Db,
  proxyId: string,
  reason: string,
): Promise<{ deactivated: boolean }> {
  const threshold = PROXY_AUTO_DISABLE_FAILURES;
  const result = await sql<{ deactivated: boolean }>`
    WITH locked AS (SELECT id, is_active FROM proxies WHERE id = ${proxyId} FOR UPDATE)
    UPDATE proxies AS p SET
      failure_count = p.failure_count + 1,
      consecutive_failures = p.consecutive_failures + 1,
      last_attempt_at = now(),
      last_failure_at = now(),
      last_failure_reason = ${storableText(reason.slice(0, MAX_REASON))},
      is_active = p.is_active AND p.consecutive_failures + 1 < ${threshold},
      auto_disabled_at = CASE WHEN p.is_active AND p.consecutive_failures + 1 >= ${threshold}
                              THEN now() ELSE p.auto_disabled_at END,
      updated_at = now()
    FROM locked
    WHERE p.id = locked.id
    RETURNING locked.is_active AND NOT p.is_active AS deactivated`.execute(db);
  return { deactivated: result.rows[0]?.deactivated ?? false };
}

/** Active proxies, least recently tried first, so a rotation spreads attempts over the pool. */
export function listActiveProxies(db: Db): Promise<ActiveProxy[]> {
  return db
    .selectFrom('proxies')
    .select(['id', 'protocol', 'host', 'port', 'username', 'password'])
    .where('is_active', '=', true)
    .orderBy(sql`last_attempt_at ASC NULLS FIRST`)
    .orderBy('id')
    .execute();
}
