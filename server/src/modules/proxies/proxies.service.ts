import {
  type BulkProxyStatusInput,
  type CreateProxy,
  type ImportProxiesResult,
  parseProxyList,
  proxyMessages,
  type UpdateProxy,
  type WebProxy,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { AppError, isUniqueViolation } from '../../platform/errors.ts';
import { toWebProxy } from './proxies.mapper.ts';
import {
  deleteProxy,
  findProxy,
  insertProxiesSkippingDuplicates,
  insertProxy,
  listActiveProxies,
  listProxies,
  type ProxyPatch,
  recordProxyFailure,
  recordProxySuccess,
  resetProxyFailures,
  setProxiesActive,
  updateProxy,
} from './proxies.repo.ts';

const IDENTITY_INDEX = 'proxies_identity_key';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs a write that may collide with another proxy's identity, answering the collision as 409. */
async function unlessDuplicate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, IDENTITY_INDEX)) throw new AppError('CONFLICT', proxyMessages.duplicate);
    throw error;
  }
}

function requireFound<T>(row: T | undefined): T {
  if (!row) throw new AppError('NOT_FOUND', proxyMessages.notFound);
  return row;
}

/** A malformed id can name no proxy; answering 404 keeps PostgreSQL's uuid cast error out of it. */
function checkId(id: string): string {
  if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND', proxyMessages.notFound);
  return id;
}

export function createProxyService(deps: { db: Database }) {
  const { db } = deps;

  return {
    async list(): Promise<WebProxy[]> {
      return (await listProxies(db)).map(toWebProxy);
    },

    async create(input: CreateProxy): Promise<WebProxy> {
      const row = await unlessDuplicate(() =>
        insertProxy(db, {
          host: input.host,
          port: input.port,
          protocol: input.protocol,
          username: input.username,
          password: input.password,
          is_active: input.isActive,
        }),
      );
      return toWebProxy(row);
    },

    async update(input: UpdateProxy): Promise<WebProxy> {
      const id = checkId(input.id);
      return db.transaction().execute(async (trx) => {
        const existing = requireFound(await findProxy(trx, id));
        const username = input.username === undefined ? existing.username : input.username;
        const password = input.password === undefined ? existing.password : input.password;
        if (Boolean(username) !== Boolean(password)) {
          throw new AppError('BAD_REQUEST', proxyMessages.credentialsPair);
        }
        const patch: ProxyPatch = {};
        if (input.host !== undefined) patch.host = input.host;
        if (input.port !== undefined) patch.port = input.port;
        if (input.protocol !== undefined) patch.protocol = input.protocol;
        if (input.username !== undefined) patch.username = input.username;
        if (input.password !== undefined) patch.password = input.password;
        if (input.isActive !== undefined) {
          patch.is_active = input.isActive;
          if (input.isActive) patch.auto_disabled_at = null;
        }
        const row = await unlessDuplicate(() => updateProxy(trx, id, patch));
        return toWebProxy(requireFound(row));
      });
    },

    async remove(id: string): Promise<void> {
      if (!(await deleteProxy(db, checkId(id)))) throw new AppError('NOT_FOUND', proxyMessages.notFound);
    },

    async resetFailures(id: string): Promise<WebProxy> {
      return toWebProxy(requireFound(await resetProxyFailures(db, checkId(id))));
    },

    async setStatus(input: BulkProxyStatusInput): Promise<{ updated: number }> {
      // Ids that cannot be proxies match nothing, exactly like ids of deleted proxies.
      const ids = input.ids?.filter((id) => uuidPattern.test(id));
      if (ids && ids.length === 0) return { updated: 0 };
      return { updated: await setProxiesActive(db, input.isActive, ids) };
    },

    /** The whole list in one transaction: either every valid line is stored or none is. */
    async importList(input: { text: string; activateByDefault: boolean }): Promise<ImportProxiesResult> {
      const parsed = parseProxyList(input.text);
      const rows = parsed.proxies.map((p) => ({
        host: p.host,
        port: p.port,
        protocol: p.protocol,
        username: p.username,
        password: p.password,
        is_active: input.activateByDefault,
      }));
      const created = await db.transaction().execute((trx) => insertProxiesSkippingDuplicates(trx, rows));
      return {
        created,
        skipped: parsed.duplicates + (rows.length - created),
        errors: parsed.errors,
      };
    },

    /** The engine's side: the active pool to rotate through, and each attempt's bookkeeping. */
    rotation: {
      listActive: () => listActiveProxies(db),
      success: (proxyId: string, url: string) => recordProxySuccess(db, proxyId, url),
      failure: (proxyId: string, reason: string) => recordProxyFailure(db, proxyId, reason),
    },
  };
}
