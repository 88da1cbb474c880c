/**
 * `npm start`: parses configuration, builds the SPA if no build exists, and runs the app with an
 * in-process worker until SIGTERM/SIGINT.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { startRuntime, stopOnSignals } from '../server/src/runtime.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (config.SERVE_CLIENT && !existsSync(path.join(config.CLIENT_DIST, 'index.html'))) {
  console.log('No client build found: building the SPA once (npm run build)…');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Building the client failed; see the output above.');
    process.exit(1);
  }
}

try {
  const runtime = await startRuntime(config);
  stopOnSignals(runtime);
} catch (error) {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
