import { fieldMessages, type TemplateCreateInputRaw, templateMessages, watchMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTemplate, templatePayload } from './fixtures.ts';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

describe('template validation messages', () => {
  const fields = templatePayload().editableFields!;
  const presets = templatePayload().responseWatchPresets!;
  const preset = presets.any![1]!;
  const cases: [string, Partial<TemplateCreateInputRaw> | Record<string, unknown>, string][] = [
    ['name missing', { name: undefined }, templateMessages.nameRequired],
    ['name blank', { name: '   ' }, 'Name is required'],
    ['resort code missing', { resortCode: '' }, 'Resort code is required'],
    ['target URL not a URL', { targetUrl: 'upstream' }, 'Target URL must be a valid URL'],
    [
      'target URL not http(s)',
      { targetUrl: 'ftp://upstream.example.com/' },
      templateMessages.targetUrlInvalid,
    ],
    ['method not allowed', { method: 'HEAD' }, templateMessages.methodInvalid],
    ['polling interval zero', { pollingIntervalSeconds: 0 }, templateMessages.pollingInterval],
    ['polling interval fractional', { pollingIntervalSeconds: 7.5 }, templateMessages.pollingInterval],
    ['group id empty', { templateGroupId: '' }, templateMessages.templateGroupIdEmpty],
    [
      'group unknown',
      { templateGroupId: '7d7e1c1e-97a9-4c5e-9a5c-1d3b1b0b0b0b' },
      templateMessages.templateGroupNotFound,
    ],
    [
      'SELECT without options',
      {
        editableFields: [{ target: 'QUERY', path: 'room', label: 'Room', fieldType: 'SELECT', options: [] }],
      },
      'Select fields require at least one option.',
    ],
    [
      'NUMBER default not numeric',
      {
        editableFields: [{ target: 'BODY', path: 'a', label: 'A', fieldType: 'NUMBER', defaultValue: 'abc' }],
      },
      'Expected a numeric value',
    ],
    [
      'field path missing',
      { editableFields: [{ target: 'BODY', path: '', label: 'A', fieldType: 'STRING' }] },
      fieldMessages.pathRequired,
    ],
    [
      'field label missing',
      { editableFields: [{ target: 'BODY', path: 'a', fieldType: 'STRING' }] },
      'Label is required',
    ],
    [
      'body path malformed',
      { editableFields: [{ target: 'BODY', path: 'party..adults', label: 'A', fieldType: 'STRING' }] },
      templateMessages.bodyPathInvalid,
    ],
    ['field twice', { editableFields: [fields[1]!, fields[1]!] }, templateMessages.duplicateField],
    ['repeat count field missing', { editableFields: [fields[3]!] }, templateMessages.repeatCountField],
    [
      'no presets',
      { responseWatchPresets: { all: [], any: [] } },
      'At least one watch preset is required in either all or any',
    ],
    [
      'rule id missing',
      { responseWatchPresets: { any: [{ ...preset, id: '' }] } },
      watchMessages.ruleIdRequired,
    ],
    [
      'rule label missing',
      { responseWatchPresets: { any: [{ ...preset, label: '' }] } },
      watchMessages.ruleLabelRequired,
    ],
    [
      'rule path missing',
      { responseWatchPresets: { any: [{ ...preset, condition: { path: '', operator: 'lte' } }] } },
      watchMessages.rulePathRequired,
    ],
    [
      'input label missing',
      { responseWatchPresets: { any: [{ ...preset, input: { type: 'number', label: '' } }] } },
      watchMessages.inputLabelRequired,
    ],
    [
      'debounce too long',
      { responseWatchPresets: { ...presets, debounceSeconds: 3601 } },
      watchMessages.debounceRange,
    ],
    [
      'debounce negative',
      { responseWatchPresets: { ...presets, debounceSeconds: -1 } },
      watchMessages.debounceRange,
    ],
    [
      'rule ids repeated',
      { responseWatchPresets: { any: [preset, preset] } },
      templateMessages.duplicateRuleId,
    ],
  ];

  it.each(cases)('%s', async (_, change, expected) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: { ...templatePayload(), ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe(expected);
  });

  it('lists every issue with its path', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: { targetUrl: 'x', resortCode: '' },
    });
    expect(res.json<{ issues: { path: string; message: string }[] }>().issues).toEqual([
      { path: 'name', message: 'Name is required' },
      { path: 'resortCode', message: 'Resort code is required' },
      { path: 'targetUrl', message: 'Target URL must be a valid URL' },
    ]);
  });

  it('validates a PATCH field by the same rules', async () => {
    const template = await createTemplate(t, admin);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/templates/${template.id}`,
      token: admin.token,
      body: {
        pollingIntervalSeconds: 3,
        editableFields: [{ target: 'BODY', path: 'a', fieldType: 'SELECT', label: 'A' }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { message: string }[] }>().issues.map((i) => i.message)).toEqual([
      templateMessages.pollingInterval,
      'Select fields require at least one option.',
    ]);
  });
});
