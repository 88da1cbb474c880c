import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CreatedApiToken } from '@resort/shared';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTemplate } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const exampleDir = `${root}examples/integrator/`;

/** The example's own entry point. Loaded at run time: it needs api.d.ts, which this test generates. */
type Flow = (options: { baseUrl: string; token: string; webhookUrl: string }) => Promise<{
  serviceId: string;
  alert: { id: string; notificationServices: { notificationServiceId: string }[] };
  windowAlert: { id: string; stayWindow: { minNights: number; maxNights: number }[] | null } | null;
  history: unknown[];
}>;
const loadFlow = async (): Promise<Flow> => {
  const file = `${exampleDir}flow.ts`;
  return ((await import(file)) as { runIntegratorFlow: Flow }).runIntegratorFlow;
};

let t: TestApp;
let planner: TestUser;
beforeAll(async () => {
  t = await startTestApp({ listen: true });
  planner = await createUser(t);
  await insertTemplate(t, { editableFields: [] });
  // A template that declares its stay, for the example's flexible-dates alert.
  await insertTemplate(t, {
    editableFields: [
      { target: 'QUERY', path: 'checkIn', label: 'Check-in', fieldType: 'DATE' },
      { target: 'QUERY', path: 'checkOut', label: 'Check-out', fieldType: 'DATE' },
    ],
    stay: { checkIn: { target: 'QUERY', path: 'checkIn' }, checkOut: { target: 'QUERY', path: 'checkOut' } },
  });
});
afterAll(() => t.close());

describe('the typed integrator example (examples/integrator)', () => {
  it('type-checks with zero errors against types generated from the served document', async () => {
    const ast = await openapiTS(new URL(`${t.baseUrl}/api/openapi.json`));
    await writeFile(`${exampleDir}api.d.ts`, astToString(ast));
    const tsc = await run(
      `${root}node_modules/.bin/tsc`,
      ['-p', `${exampleDir}tsconfig.json`, '--noEmit', '--pretty', 'false'],
      { cwd: root },
    ).catch((e: { stdout: string; code: number }) => e);
    expect(tsc.stdout).toBe('');
  }, 120_000);

  it('runs its flow green with a read-write personal API token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/api-tokens',
      token: planner.token,
      body: { name: 'integrator example', scope: 'read-write' },
    });
    expect(res.statusCode).toBe(201);
    const { token } = res.json<{ data: CreatedApiToken }>().data;
    const runIntegratorFlow = await loadFlow();
    const result = await runIntegratorFlow({
      baseUrl: t.baseUrl!,
      token,
      webhookUrl: 'https://93.184.215.14/hook',
    });
    expect(result.alert.notificationServices.map((s) => s.notificationServiceId)).toEqual([result.serviceId]);
    expect(Array.isArray(result.history)).toBe(true);
    expect(result.windowAlert?.stayWindow).toMatchObject([{ minNights: 4, maxNights: 5 }]);
    const windowGone = await t.request({
      method: 'GET',
      url: `/api/registrations/${result.windowAlert!.id}`,
      token,
    });
    expect(windowGone.statusCode).toBe(404);
    const gone = await t.request({ method: 'GET', url: `/api/registrations/${result.alert.id}`, token });
    expect(gone.statusCode).toBe(404);
  });
});
