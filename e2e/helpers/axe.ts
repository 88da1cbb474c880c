import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { artifactsDir } from './browser.ts';

/** The sizes every screen is audited at: the desktop the journeys run in, and a phone. */
export const DESKTOP = { width: 1366, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface AxeFinding {
  screen: string;
  width: number;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** One axe-core run (WCAG 2.0/2.1 A and AA rules) at the page's current size; serious and critical findings. */
async function audit(page: Page, screen: string): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const width = page.viewportSize()?.width ?? 0;
  return results.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .map((v) => ({
      screen,
      width,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`),
    }));
}

/** Lets layout and Mantine's transitions (200 ms) settle after a resize or an opened overlay. */
async function settle(page: Page) {
  // Mantine's transitions take 200 ms; the page has re-laid out well within this.
  await page.waitForTimeout(300);
}

/**
 * Audits the current screen with axe-core at 1366 px and at 390 px (the page is resized and put
 * back), saves a full-page screenshot at each size as test-results/e2e/<name>-<width>.png, and
 * throws listing every serious or critical violation. Call it on each screen a journey reaches.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? DESKTOP;
  const findings: AxeFinding[] = [];
  await mkdir(artifactsDir, { recursive: true });
  for (const size of [DESKTOP, PHONE]) {
    // A screen the journey has just opened may still be fading in (a dialog, a closing menu): axe
    // would read the colours of a frame in between, so every audit waits for transitions to end.
    if (page.viewportSize()?.width !== size.width) await page.setViewportSize(size);
    await settle(page);
    findings.push(...(await audit(page, name)));
    await page.screenshot({ path: path.join(artifactsDir, `${name}-${size.width}.png`), fullPage: true });
  }
  if (page.viewportSize()?.width !== original.width) {
    await page.setViewportSize(original);
    await settle(page);
  }
  if (findings.length > 0) {
    const lines = findings.map(
      (f) => `[${f.width}px] ${f.rule} (${f.impact}): ${f.help}\n    ${f.targets.join('\n    ')}`,
    );
    throw new Error(
      `axe found ${findings.length} serious/critical violation(s) on "${name}":\n${lines.join('\n')}`,
    );
  }
}
