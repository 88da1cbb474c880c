import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../e2e/helpers/chromium.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { watchCspViolations } from '../helpers/csp-violations.ts';

/**
 * The reference page (Scalar) renders the served document in headless Chromium under the app's
 * Content-Security-Policy, with not one violation: its inline boot script is allowed by hash only.
 */

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp({ listen: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the API reference page', () => {
  it('renders the document at /api/docs with no CSP violation', async () => {
    const page = await browser.newPage();
    const violations = await watchCspViolations(page);
    const res = await page.goto(`${t.baseUrl}/api/docs`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    await page.getByText('Resort Alerts API', { exact: false }).first().waitFor({ timeout: 20_000 });
    // Every module is listed, the token routes among them.
    await page.getByText('apiTokens', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.getByText('registrations', { exact: true }).first().waitFor({ timeout: 20_000 });
    // Scalar's bundled zod probes whether `new Function` is allowed and falls back when it is not:
    // that probe is the one refusal expected; nothing else may be blocked.
    expect(violations.filter((v) => v !== 'script-src blocked eval')).toEqual([]);
    await page.close();
  }, 60_000);
});
