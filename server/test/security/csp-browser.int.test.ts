import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../e2e/helpers/chromium.ts';
import { createUser, STRONG_PASSWORD } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { watchCspViolations } from '../helpers/csp-violations.ts';

/**
 * The SPA passes the server's Content-Security-Policy: the production build, served by the real app
 * with its real headers, renders in headless Chromium without a single CSP violation.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = path.join(repoRoot, '.data', `csp-dist-${randomBytes(4).toString('hex')}`);

let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  await promisify(execFile)(
    path.join(repoRoot, 'node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: path.join(repoRoot, 'client') },
  );
  t = await startTestApp({ listen: true, clientDist: outDir });
  // As root (CI containers) Chromium needs its sandbox off.
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await rm(outDir, { recursive: true, force: true });
});

/** The SPA's stored session (one localStorage key), for an administrator signed in over REST. */
async function adminSession(): Promise<string> {
  const admin = await createUser(t, { role: 'super_admin' });
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    body: { email: admin.email, password: STRONG_PASSWORD },
  });
  const { tokens, user } = res.json<{
    data: { tokens: { accessToken: string; expiresIn: number }; user: Record<string, unknown> };
  }>().data;
  return JSON.stringify({ tokens: { ...tokens, expiresAt: Date.now() + tokens.expiresIn * 1000 }, user });
}

/** A page that reports every CSP violation (event or console message) into the returned list. */
async function watchedPage(route: string, session?: string) {
  const page = await browser.newPage();
  if (session) {
    await page.addInitScript({
      content: `localStorage.setItem('resort-alerts.session', ${JSON.stringify(session)});`,
    });
  }
  const violations = await watchCspViolations(page);
  const res = await page.goto(`${t.baseUrl}${route}`, { waitUntil: 'networkidle' });
  await page.waitForFunction("(document.getElementById('root')?.childElementCount ?? 0) > 0");
  return { page, violations, csp: res?.headers()['content-security-policy'] };
}

describe('the SPA under the Content-Security-Policy', () => {
  it.each(['/', '/login', '/register', '/alerts'])('%s renders with no CSP violation', async (route) => {
    const { page, violations, csp } = await watchedPage(route);
    expect(csp).toContain("script-src 'self'");
    expect(violations).toEqual([]);
    await page.close();
  });

  it.each([
    '/dashboard',
    '/alerts',
    '/settings',
    '/admin/alerts',
    '/admin/templates',
    '/admin/templates/new',
    '/admin/proxies',
  ])('%s, signed in as an administrator, renders with no CSP violation', async (route) => {
    const { page, violations } = await watchedPage(route, await adminSession());
    // The stored session was accepted: the guard did not send us to sign in.
    expect(new URL(page.url()).pathname).toBe(route);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('would notice a violation: an injected inline script is blocked and reported', async () => {
    const { page, violations } = await watchedPage('/');
    await page.evaluate(
      "const s = document.createElement('script'); s.textContent = 'window.ran = 1'; document.head.append(s);",
    );
    expect(await page.evaluate('window.ran === undefined')).toBe(true);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
    await page.close();
  });
});
