import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { launchChromium } from './chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifactsDir = path.join(root, 'test-results/e2e');

/** Debian's chromium, started as this machine's closed network needs (no background traffic). */
export const launchBrowser = launchChromium;

export interface Journey {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Saves the current screen as test-results/e2e/<name>.png. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startJourney(browser: Browser, baseURL: string): Promise<Journey> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    // The location names the failing resource for "Failed to load resource" errors.
    if (msg.type() === 'error') errors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(err.message));
  // The page's calls to the app, in order: what a failing journey asked, and what came back when.
  const started = Date.now();
  const since = () => `${Date.now() - started} ms`;
  const calls: { asked: string; answered?: string }[] = [];
  const callOf = new WeakMap<Request, (typeof calls)[number]>();
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (!pathname.startsWith('/trpc') && !pathname.startsWith('/api')) return;
    const call = { asked: `${since()} ${req.method()} ${pathname}` };
    calls.push(call);
    callOf.set(req, call);
  });
  page.on('requestfinished', async (req) => {
    const call = callOf.get(req);
    if (call) call.answered = `${(await req.response())?.status()} at ${since()}`;
  });
  page.on('requestfailed', (req) => {
    const call = callOf.get(req);
    if (call) call.answered = `failed (${req.failure()?.errorText}) at ${since()}`;
  });
  // A failing journey leaves its last screen and the page's alerts behind, to see what went wrong.
  onTestFailed(async ({ task }) => {
    if (page.isClosed()) return;
    await mkdir(artifactsDir, { recursive: true });
    const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    await page.screenshot({ path: path.join(artifactsDir, `FAILED-${name}.png`), fullPage: true });
    const alerts = await page.getByRole('alert').allInnerTexts();
    console.error(
      `Failed at ${page.url()}; alerts on the page: ${JSON.stringify(alerts)}; errors: ${JSON.stringify(errors)}`,
    );
    const last = calls.slice(-25).map((c) => `  ${c.asked}: ${c.answered ?? 'no answer yet'}`);
    console.error(`Last calls to the app:\n${last.join('\n')}`);
  });
  return {
    context,
    page,
    errors,
    async screenshot(name) {
      await mkdir(artifactsDir, { recursive: true });
      const file = path.join(artifactsDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    close: () => context.close(),
  };
}

/**
 * Holds back the app's answers to one tRPC procedure (alone or batched with others) until `release`,
 * which lets them through and stops holding: what a screen shows while its answer is on the way.
 */
export async function holdAnswers(page: Page, procedure: string) {
  let letThrough!: () => void;
  const released = new Promise<void>((resolve) => {
    letThrough = resolve;
  });
  const asks = (url: URL) =>
    url.pathname.startsWith('/trpc/') && url.pathname.slice('/trpc/'.length).split(',').includes(procedure);
  const hold = async (route: Route) => {
    await released;
    await route.continue().catch((error: Error) => {
      // The page gave up on the call meanwhile (a newer fetch replaced it): nothing to let through.
      if (!error.message.includes('already handled')) throw error;
    });
  };
  await page.route(asks, hold);
  return {
    async release() {
      await page.unroute(asks, hold);
      letThrough();
    },
  };
}
