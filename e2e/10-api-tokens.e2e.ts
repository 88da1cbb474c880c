import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { pickOption } from './helpers/forms.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('an integrator creates a personal API token in Settings, uses it on /api, and revokes it', async () => {
  const account = await createAccount('Ian', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, account, '/settings');

  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByText('No API tokens yet.').waitFor();
  await section.getByLabel('Token name').fill(`Script ${account.tag}`);
  await pickOption(page, section.getByLabel('Scope', { exact: true }), 'Read and write');
  await section.getByRole('button', { name: 'Create token' }).click();

  // Shown once: read it off the page, as a person copying it would.
  const shown = section.getByTestId('new-api-token');
  await shown.waitFor();
  const token = (await shown.textContent())?.trim() ?? '';
  expect(token).toMatch(/^ra_pat_[A-Za-z0-9_-]{43}$/);
  const row = section.getByRole('row').filter({ hasText: `Script ${account.tag}` });
  await row.waitFor();
  expect(await row.textContent()).toContain(token.slice(0, 12));
  await journey.screenshot('10-api-token-created');
  await expectAccessible(page, '10-api-token-created');

  // The token acts as its owner on /api.
  const me = await fetch(`${inject('baseUrl')}/api/users/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { data: { user: { email: string } } }).data.user.email).toBe(account.email);

  // Stored hashed: the token itself is nowhere in the table.
  const stored = await query<{ token_hash: string; last_used_at: Date | null }>(
    'SELECT token_hash, last_used_at FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1',
    [account.email],
  );
  expect(stored).toHaveLength(1);
  expect(stored[0]?.token_hash).not.toContain(token);
  expect(stored[0]?.last_used_at).not.toBeNull();

  // Revoked in Settings: the next call with it is refused.
  await section.getByRole('button', { name: 'Done' }).click();
  await row.getByRole('button', { name: `Revoke Script ${account.tag}` }).click();
  await section.getByText('No API tokens yet.').waitFor();
  const after = await fetch(`${inject('baseUrl')}/api/users/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(after.status).toBe(401);
  expect(await after.json()).toEqual({ message: 'API token has been revoked.', code: 'UNAUTHORIZED' });
});
