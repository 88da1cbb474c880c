import pg from 'pg';
import { inject } from 'vitest';

/** Reads or changes what the server stored, to check a journey's effects. */
export async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export async function setRoles(email: string, roles: string[]): Promise<void> {
  await query('UPDATE users SET roles = $1 WHERE lower(email) = lower($2)', [roles, email]);
}
