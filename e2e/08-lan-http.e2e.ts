import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount } from './helpers/accounts.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { type LanAddress, lanAddress } from './helpers/lan.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let browser: Browser;
let lan: LanAddress;
let app: ChildProcess;
let baseUrl: string;
let output = '';

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A second instance of the app on the same database, listening only on this machine's LAN address,
 * configured as a self-hoster would run it at home: production, no COOKIE_SECURE, no TLS.
 */
beforeAll(async () => {
  lan = lanAddress();
  const port = await freePort(lan.address);
  baseUrl = `http://${lan.address}:${port}`;
  app = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: lan.address,
      PORT: String(port),
      DATABASE_URL: inject('databaseUrl'),
      RUN_WORKER: 'false',
      SERVE_CLIENT: 'true',
      LOG_LEVEL: 'warn',
      COOKIE_SECURE: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-10_000);
  };
  app.stdout?.on('data', keep);
  app.stderr?.on('data', keep);
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (app.exitCode !== null || Date.now() > deadline)
      throw new Error(`the LAN app did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once('exit', resolve));
    app.kill('SIGTERM');
    await exited;
  }
  lan?.release();
});

test('the SPA loads over plain HTTP at the machine’s LAN address, and a planner signs in and stays signed in', async () => {
  expect(lan.address).not.toMatch(/^127\./);
  const planner = await createAccount('Lan', ['user']);
  const journey = await startJourney(browser, baseUrl);
  const { page } = journey;

  const answer = await page.goto('/login');
  expect(answer?.status()).toBe(200);
  const headers = answer?.headers() ?? {};
  // Over plain HTTP the browser must not be told to switch to https: that is the blank page.
  expect(headers['strict-transport-security']).toBeUndefined();
  expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  expect(await page.evaluate('window.isSecureContext')).toBe(false);

  await page.getByLabel(/^Email/).fill(planner.email);
  await page.getByLabel(/^Password/).fill(planner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { name: 'Home', level: 2 }).waitFor();
  await expectAccessible(page, '08-lan-home');

  // The refresh cookie was accepted over HTTP (a Secure one would have been dropped).
  const cookie = (await journey.context.cookies()).find((c) => c.name === 'ra_refresh');
  expect(cookie).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Strict' });

  // A reload keeps the session, and another screen loads its data over the same plain HTTP.
  await page.reload();
  await page.getByRole('heading', { name: 'Home', level: 2 }).waitFor();
  await page.goto('/settings');
  await page
    .getByRole('region', { name: 'Notification services' })
    .getByRole('listitem')
    .filter({ hasText: 'Primary Email Alerts' })
    .waitFor();

  expect(journey.errors).toEqual([]);
  await journey.close();
});
