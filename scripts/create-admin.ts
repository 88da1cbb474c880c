/**
 * `npm run create-admin -- --email x --password y [--name n] [--super]`: creates an administrator, or
 * promotes an existing account (its password is then changed only when --password is given).
 */
import { parseArgs } from 'node:util';
import { emailSchema, newPasswordSchema } from '@resort/shared';
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import { hashPassword } from '../server/src/modules/auth/passwords.ts';
import { findUserByEmail, insertUser, updateUser } from '../server/src/modules/users/users.repo.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { openDatabase } from '../server/src/runtime.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    super: { type: 'boolean', default: false },
  },
});

const email = emailSchema.safeParse(values.email ?? '');
if (!email.success) fail(`--email: ${email.error.issues[0]?.message}`);
if (values.password !== undefined) {
  const pw = newPasswordSchema.safeParse(values.password);
  if (!pw.success) fail(`--password: ${pw.error.issues[0]?.message}`);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

const log = createLogger('warn');
const { handle, embedded } = await openDatabase(config, log);
try {
  await migrateToLatest(handle.db);
  const role = values.super ? 'super_admin' : 'admin';
  const existing = await findUserByEmail(handle.db, email.data);
  if (existing) {
    const roles = [...new Set([...existing.roles, 'user', role])];
    await updateUser(handle.db, existing.id, {
      roles,
      ...(values.password ? { password_hash: await hashPassword(values.password) } : {}),
      ...(values.name ? { name: values.name } : {}),
    });
    console.log(`Promoted ${existing.email} to ${role}.`);
  } else {
    if (!values.password) fail('--password is required to create a new account.');
    const user = await insertUser(handle.db, {
      email: email.data,
      name: values.name ?? 'Administrator',
      password_hash: await hashPassword(values.password),
      roles: ['user', role],
    });
    console.log(`Created ${role} ${user.email}.`);
  }
} finally {
  await handle.destroy();
  await embedded?.stop();
}
