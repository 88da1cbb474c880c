import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { ensureQueues } from '../src/jobs/boss.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbAdminUrl: string;
    dbTemplate: string;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

/** The template's name changes whenever a migration or the pg-boss version changes. */
function templateName(): string {
  const hash = createHash('sha256');
  const dir = path.join(repoRoot, 'migrations');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  hash.update(readFileSync(path.join(repoRoot, 'node_modules/pg-boss/package.json')));
  return `resort_tpl_${hash.digest('hex').slice(0, 12)}`;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function dropStaleTestDatabases(admin: pg.Client) {
  const { rows } = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'resort_t\\_%'",
  );
  const cutoff = Date.now() - 2 * 60 * 60 * 1000;
  for (const { datname } of rows) {
    const stamp = Number(datname.split('_')[2]);
    if (Number.isFinite(stamp) && stamp < cutoff) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
    }
  }
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(repoRoot, '.data/test'),
      port: Number(process.env.TEST_PG_PORT ?? 54330),
      database: 'postgres',
    });
    adminUrl = embedded.url;
  }

  const template = templateName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await dropStaleTestDatabases(admin);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!exists.rowCount) {
      // Build under a temporary name and rename when complete, so a crash never leaves a half template.
      const building = `${template}_b${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const url = withDatabase(adminUrl, building);
      const handle = createDatabase(url, { max: 2 });
      await migrateToLatest(handle.db);
      await handle.destroy();
      const boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false });
      await boss.start();
      await ensureQueues(boss);
      await boss.stop({ graceful: false });
      try {
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      } catch {
        // Another run built the same template first.
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      }
    }
  } finally {
    await admin.end();
  }

  project.provide('dbAdminUrl', adminUrl);
  project.provide('dbTemplate', template);

  return async () => {
    await embedded?.stop();
  };
}
