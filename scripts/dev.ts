/**
 * `npm run dev`: the API (with an in-process worker) on :3000 and Vite on :5173, which proxies
 * /api and /trpc to the API. Ctrl-C stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process';

const env = { ...process.env, NODE_ENV: 'development', SERVE_CLIENT: 'false', COOKIE_SECURE: 'false' };
const children: ChildProcess[] = [
  spawn(process.execPath, ['scripts/start.ts'], { stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '-w', 'client'], { stdio: 'inherit', env }),
];

let stopping = false;
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
