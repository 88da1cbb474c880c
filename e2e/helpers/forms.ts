import type { Locator, Page } from 'playwright-core';

/** Chooses an option of a Mantine Select: opens its listbox and clicks the option by name. */
export async function pickOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}
