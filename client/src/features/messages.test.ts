import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  alertListMessages,
  alertMessages,
  fieldMessages,
  generatorMessages,
  messages,
  proxyMessages,
  templateGroupMessages,
  templateMessages,
  watchMessages,
} from '@resort/shared';
import { describe, expect, it } from 'vitest';

/**
 * The messages (docs/product.md, "Validation and messages"; docs/product.md, "Errors") of the alert form, the template screens and proxy management, named
 * by their shared constants (never spelled out here, so this file adds no copy). Each must be
 * written exactly once in the source: in its shared schema or messages file.
 */
type Message = string | ((...args: never[]) => string);
const pick = <T extends Record<string, Message>>(set: T, keys: (keyof T)[]) =>
  keys.map((key) => [String(key), set[key] as Message] as const);

const specMessages = [
  ...pick(proxyMessages, [
    'hostRequired',
    'credentialsPair',
    'selectFirst',
    'importMustBeTxt',
    'autoDisabled',
    'loadFailed',
    'statusFailed',
    'updateFailed',
    'deleteFailed',
    'resetFailed',
    'importFailed',
    'createFailed',
    'readFileFailed',
  ]),
  ...pick(templateMessages, [
    'nameRequired',
    'editorNameRequired',
    'resortCodeRequired',
    'targetUrlInvalid',
    'editorTargetUrlInvalid',
    'saveBeforeTest',
    'loadFailed',
    'loadListFailed',
    'loadListFailedRefresh',
    'saveFailed',
    'deleteFailed',
    'testFailed',
    'generatorLoadFailed',
  ]),
  ...pick(templateGroupMessages, [
    'nameRequired',
    'nameEmpty',
    'updateNeedsField',
    'loadFailed',
    'createFailed',
  ]),
  ...pick(fieldMessages, ['pathRequired', 'labelRequired', 'selectNeedsOption', 'expectedNumeric']),
  ...pick(watchMessages, ['atLeastOnePreset']),
  ...pick(messages.common, ['invalidJson']),
  ...pick(generatorMessages, Object.keys(generatorMessages) as (keyof typeof generatorMessages)[]),
  ...pick(alertMessages, [
    'templateRequired',
    'chooseTemplateFirst',
    'pollingIntervalNumber',
    'fieldRequired',
    'atLeastOneValue',
    'linkedEntry',
    'linkedEntries',
    'requiredSummary',
    'dateInPast',
    'datesInPast',
    'inputNumber',
    'inputBoolean',
    'inputRequired',
    'ruleRequired',
    'misconfigured',
    'invalidJson',
    'queryValueType',
  ]),
  ...pick(alertListMessages, [
    'loadFailedFallback',
    'createFailed',
    'updateFailed',
    'testFailed',
    'notFoundForEditing',
    'editingCancelled',
  ]),
];

const sentinel = '\u0000';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * How the message is written in source: a quoted string, or for a function a template literal
 * whose fixed parts surround its interpolations.
 */
function literal(message: Message): RegExp {
  if (typeof message === 'string') return new RegExp(`(['"\`])${escapeRegExp(message)}\\1`, 'g');
  const parts = (message as (...a: string[]) => string)(sentinel, sentinel, sentinel).split(sentinel);
  return new RegExp(`\`${parts.map(escapeRegExp).join('\\$\\{[^}]*\\}')}\``, 'g');
}
/** Comments may quote a message; only code counts. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const root = join(import.meta.dirname, '../../../');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts') ? [path] : [];
  });
}
const files = ['client/src', 'shared/src', 'server/src'].flatMap((dir) => sources(join(root, dir)));
const texts = files.map((path) => ({
  path: path.slice(root.length),
  text: withoutComments(readFileSync(path, 'utf8')),
}));

describe('editor messages', () => {
  it.each(specMessages)('%s is written once, in shared', (_key, message) => {
    const pattern = literal(message);
    const hits = texts.flatMap(({ path, text }) => [...text.matchAll(pattern)].map(() => path));
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatch(/^shared\/src\//);
  });
});
