import { describe, expect, it } from 'vitest';
import {
  jsonTextSchema,
  templateCreateInput,
  templateEditorSchema,
  templateGroupPatchSchema,
  templateMessages,
} from './template.schema.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('template schemas', () => {
  it('speaks the API wording and the editor wording of the same rules', () => {
    const bad = { name: '', resortCode: 'X', targetUrl: 'nope' };
    expect(templateCreateInput.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      'Name is required',
      'Target URL must be a valid URL',
    ]);
    expect(templateEditorSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      'Template name is required',
      'Provide a valid URL',
    ]);
  });

  it('trims text and keeps only http(s) target URLs', () => {
    const ok = templateCreateInput.parse({
      name: ' A ',
      resortCode: ' R ',
      targetUrl: ' https://x.example/a ',
    });
    expect(ok).toMatchObject({ name: 'A', resortCode: 'R', targetUrl: 'https://x.example/a' });
    expect(firstMessage(templateCreateInput.safeParse({ ...ok, targetUrl: 'javascript:alert(1)' }))).toBe(
      templateMessages.targetUrlInvalid,
    );
  });

  it('parses JSON text boxes, blank as nothing, with the bad-JSON message', () => {
    expect(jsonTextSchema.parse('{"a":[1]}')).toEqual({ a: [1] });
    expect(jsonTextSchema.parse('  ')).toBeUndefined();
    expect(firstMessage(jsonTextSchema.safeParse('{a:1}'))).toBe('Invalid JSON provided.');
  });

  it('needs at least one field to update a group', () => {
    expect(firstMessage(templateGroupPatchSchema.safeParse({}))).toBe(
      'At least one field is required to update the group',
    );
    expect(templateGroupPatchSchema.safeParse({ displayOrder: 0 }).success).toBe(true);
  });
});
