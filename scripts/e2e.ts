/**
 * `npm run e2e`: builds the SPA, then runs the browser journeys (e2e/*.e2e.ts) in Debian's chromium
 * against the app started on a fresh database with the simulator and a webhook receiver.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}: apt-get install chromium (or set CHROMIUM_PATH).`);
  process.exit(1);
}

const run = (args: string[]) => spawnSync('npm', args, { stdio: 'inherit', env: process.env }).status ?? 1;

if (!process.env.E2E_SKIP_BUILD && run(['run', 'build', '--silent']) !== 0) process.exit(1);
process.exit(
  run(['exec', '--', 'vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)]),
);
