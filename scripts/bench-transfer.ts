/**
 * `npm run bench -- transfer`: the bytes a first visit to /login moves over the wire, as Chromium
 * counts them (compressed, headers included), against the built SPA (`npm run build` first).
 * Starts the app on a throwaway database from DATABASE_URL (or the embedded one), loads /login in a
 * fresh browser context with the cache off, and prints each response's size and the total.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { launchChromium } from '../e2e/helpers/chromium.ts';
import { loadConfig } from '../server/src/config.ts';
import { startRuntime } from '../server/src/runtime.ts';

/** The budget docs/performance.md holds the cold /login transfer to. */
const BUDGET_BYTES = 250 * 1024;

async function throwawayDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin) return { url: undefined, drop: async () => {} };
  const name = `resort_transfer_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export async function runTransferBench(_argv: string[]): Promise<void> {
  if (!existsSync('client/dist/index.html')) throw new Error('No client build: run `npm run build` first.');
  const database = await throwawayDatabase();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: '0',
    RUN_WORKER: 'false',
    SERVE_CLIENT: 'true',
    LOG_LEVEL: 'warn',
  });
  const runtime = await startRuntime(config);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    const encodings = new Map<string, string>();
    const sizes = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      urls.set(e.requestId, e.response.url);
      const headers = e.response.headers as Record<string, string>;
      encodings.set(e.requestId, headers['content-encoding'] ?? headers['Content-Encoding'] ?? 'identity');
    });
    cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
    await page.goto(`${runtime.url}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    let total = 0;
    for (const [id, bytes] of sizes) {
      total += bytes;
      const url = new URL(urls.get(id) ?? 'about:blank');
      console.log(`${String(bytes).padStart(9)}  ${encodings.get(id)?.padEnd(8)}  ${url.pathname}`);
    }
    const kb = (total / 1024).toFixed(1);
    console.log(`cold /login transfer: ${total} bytes (${kb} KB) in ${sizes.size} responses`);
    console.log(`budget ${BUDGET_BYTES / 1024} KB: ${total <= BUDGET_BYTES ? 'within' : 'OVER'}`);
  } finally {
    await browser.close();
    await runtime.stop();
    await database.drop();
  }
}
