import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
