import { generatedRuleGroup } from '@resort/shared';
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

interface StoredPreset {
  id: string;
  group?: string;
  condition: { path: string; operator: string; value?: unknown };
}

test('an admin creates a group and a template, runs the live test, generates rules and saves', async () => {
  const admin = await createAccount('Admin', ['user', 'admin']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  const name = `Simulator resort ${admin.tag}`;
  const groupName = `Simulator group ${admin.tag}`;

  await signIn(page, admin, '/admin/templates');
  await page.getByRole('heading', { name: 'Template Administration' }).waitFor();
  await expectAccessible(page, '02-templates-list');
  await page.getByRole('link', { name: 'Create Template' }).click();
  await page.waitForURL('**/admin/templates/new');

  // Configuration, with a group created inline.
  const config = page.getByRole('region', { name: 'Template configuration' });
  await config.getByLabel(/^Name/).fill(name);
  await config.getByLabel(/^Resort code/).fill('SIM');
  await config.getByLabel(/^Description/).fill('Rooms from the loopback simulator.');
  await config.getByRole('button', { name: 'New group' }).click();
  await config.getByLabel('New group name').fill(groupName);
  await config.getByRole('button', { name: 'Create group' }).click();
  await expect.poll(() => config.getByLabel('Template group').inputValue()).toBe(groupName);
  await config.getByLabel(/^Target URL/).fill(`${inject('simulatorUrl')}/availability`);
  await pickOption(page, config.getByLabel('Method'), 'GET');
  await config.getByLabel('Polling interval (seconds)').fill('10');
  await config.getByLabel('Default query (JSON object)').fill('{ "resort": "SIM", "adults": 2 }');

  // One hand-written rule: a new template needs at least one.
  const rules = page.getByRole('region', { name: 'Alert rules' });
  await rules.getByRole('button', { name: 'Add rule to "Any of these"' }).click();
  const handRule = rules.getByTestId('preset').last();
  await handRule.getByLabel(/^Rule id/).fill('any-room');
  await handRule.getByLabel(/^Rule label/).fill('Any room available');
  await handRule.getByLabel(/^Response path/).fill('anyAvailable');
  await pickOption(page, handRule.getByLabel('Operator'), 'equals');
  await handRule.getByLabel('Comparison value').fill('true');
  await expectAccessible(page, '02-template-new');

  await page.getByRole('button', { name: 'Create template' }).click();
  await page.waitForURL(/\/admin\/templates\/[0-9a-f-]{36}\/edit$/);
  await page.getByText(`Template "${name}" created.`).waitFor();
  const templateId = /templates\/([0-9a-f-]{36})\/edit/.exec(page.url())?.[1];

  // The live test reaches the simulator through the server.
  await page.getByRole('button', { name: 'Run live test' }).click();
  const result = page.getByRole('region', { name: 'Live test result' });
  await result.getByText('Status: 200').waitFor();
  expect(await result.textContent()).toContain('"anyAvailable"');

  // Rules generated from the answer, then saved.
  await rules.getByRole('button', { name: 'Generate basic alert rules' }).click();
  // A compact checklist to pick from; the first candidate is left out.
  const picker = rules.getByRole('group', { name: 'Generated rules' });
  const generated = picker.getByRole('status').filter({ hasText: /rules generated from the test response/ });
  await generated.waitFor();
  const count = Number(/^(\d+) rules/.exec((await generated.textContent()) ?? '')?.[1]);
  expect(count).toBeGreaterThan(1);
  await picker.getByRole('checkbox').first().uncheck();
  await expectAccessible(page, '02-template-generated-checklist');
  await picker.getByRole('button', { name: `Add ${count - 1} rule${count - 1 === 1 ? '' : 's'}` }).click();
  await rules.getByText(`${count - 1} rule${count - 1 === 1 ? '' : 's'} added to "All of these".`).waitFor();
  // Saved and generated rules are folded to one line each: the hand rule and the chosen ones.
  expect(await rules.getByTestId('preset').count()).toBe(count);
  await page.getByRole('button', { name: 'Save template' }).click();
  await page.getByText('Template saved.').waitFor();
  await expectAccessible(page, '02-template-edit');

  // The administration list shows the template in its group.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
  await page.waitForURL('**/admin/templates');
  // The list refetches after the save: wait until it has settled.
  await expect.poll(() => page.getByRole('button', { name: 'Refresh' }).isEnabled()).toBe(true);
  const card = page.getByTestId('template-card').filter({ hasText: name });
  await card.waitFor();
  const cardText = await card.textContent();
  expect(cardText).toContain(groupName);
  expect(cardText).toContain('10 seconds');
  expect(cardText).toContain('GET');
  await expectAccessible(page, '02-templates-list-with-card');

  // What the server stored.
  const [stored] = await query<{
    target_url: string;
    method: string;
    polling_interval_seconds: number;
    default_query: unknown;
    group_name: string;
    response_watch_presets: { all: StoredPreset[]; any: StoredPreset[]; groups: { id: string }[] };
  }>(
    `SELECT t.target_url, t.method, t.polling_interval_seconds, t.default_query, g.name AS group_name,
            t.response_watch_presets
       FROM templates t JOIN template_groups g ON g.id = t.template_group_id WHERE t.id = $1`,
    [templateId],
  );
  expect(stored).toMatchObject({
    target_url: `${inject('simulatorUrl')}/availability`,
    method: 'GET',
    polling_interval_seconds: 10,
    default_query: { resort: 'SIM', adults: 2 },
    group_name: groupName,
  });
  const presets = stored?.response_watch_presets;
  expect(presets?.any).toEqual([
    expect.objectContaining({
      id: 'any-room',
      condition: expect.objectContaining({ path: 'anyAvailable', operator: 'equals', value: true }),
    }),
  ]);
  expect(presets?.all).toHaveLength(count - 1);
  expect(presets?.all.every((p) => p.group === generatedRuleGroup.id)).toBe(true);
  expect(presets?.all.some((p) => p.condition.path.startsWith('rooms['))).toBe(true);

  expect(journey.errors).toEqual([]);
  await journey.close();
});
