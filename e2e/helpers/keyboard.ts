import type { Locator, Page } from 'playwright-core';

/**
 * Presses Tab until `target` has the focus, as a keyboard user moves through a page; answers how
 * many presses it took. Fails after `max` presses, naming what had the focus last.
 */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false))
      return presses;
  }
  const focused = await page
    .locator(':focus')
    .evaluate((el) => el.outerHTML.slice(0, 200))
    .catch(() => 'nothing');
  throw new Error(`${max} Tabs did not reach ${target}; the focus was on ${focused}`);
}
