import {
  fieldMessages,
  generatorMessages,
  messages,
  type TemplateCreateInput,
  templateGroupMessages,
  templateMessages,
  watchMessages,
} from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord, TemplateTestAnswer } from '@/api/contracts.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { pickerTexts } from './generated-rules-picker.tsx';
import { TemplateEditor, type TemplateEditorProps } from './template-editor.tsx';

const stored: TemplateRecord = {
  id: 'tpl-1',
  name: 'Poly rooms',
  description: null,
  resortCode: 'POLY',
  templateGroupId: null,
  templateGroup: null,
  targetUrl: 'https://resort.example.com/api/rooms',
  method: 'POST',
  pollingIntervalSeconds: 60,
  defaultHeaders: {},
  defaultQuery: {},
  defaultBody: { party: { adults: 2 } },
  responseWatchConfig: null,
  responseWatchPresets: {
    notifyOn: 'everyMatch',
    notifyOnResolved: false,
    debounceSeconds: 0,
    groups: [{ id: 'price', label: 'Price' }],
    all: [
      {
        id: 'cheap',
        label: 'Cheap room',
        group: 'price',
        condition: { path: 'rooms[*].price', operator: 'lte', value: 300 },
      },
    ],
    any: [],
  },
  isActive: true,
  editableFields: [
    {
      target: 'BODY',
      path: 'roomType',
      label: 'Room type',
      fieldType: 'SELECT',
      options: [{ value: 'STD', label: 'Standard' }],
    },
  ],
  stay: null,
  createdAt: '2026-01-05T10:00:00.000Z',
};

function setup(over: Partial<TemplateEditorProps> = {}) {
  const saved: TemplateCreateInput[] = [];
  const props: TemplateEditorProps = {
    template: stored,
    groups: [],
    groupsError: null,
    generators: [{ id: 'gen', label: 'Room availability', description: 'Rooms' }],
    onSave: async (data) => {
      saved.push(data);
      return data;
    },
    onDelete: async () => {},
    onTest: async () => {
      throw new Error('not used');
    },
    onCreateGroup: async (name) => ({ id: 'g-new', name, description: null, displayOrder: 0, createdAt: '' }),
    onLoadSample: async () => undefined,
    ...over,
  };
  renderWithMantine(<TemplateEditor {...props} />);
  return { saved, user: userEvent.setup() };
}

const section = (name: string) => screen.getByRole('region', { name });
const choose = async (user: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) => {
  await user.click(input);
  await user.click(await screen.findByRole('option', { name: option }));
};

// A whole editor per test: generous time on a shared 2-core machine.
describe('TemplateEditor transitions', () => {
  it('clears options when a field leaves SELECT and adds one blank option when it becomes SELECT', async () => {
    const { user } = setup();
    const fields = section('Registration override fields');
    expect(within(fields).getByRole('textbox', { name: 'Option 1 value' })).toHaveValue('STD');
    await choose(user, within(fields).getByRole('combobox', { name: 'Type' }), 'STRING');
    expect(within(fields).queryByRole('textbox', { name: 'Option 1 value' })).toBeNull();
    await choose(user, within(fields).getByRole('combobox', { name: 'Type' }), 'SELECT');
    expect(within(fields).getByRole('textbox', { name: 'Option 1 value' })).toHaveValue('');
    expect(within(fields).queryByRole('textbox', { name: 'Option 2 value' })).toBeNull();
  });

  it('clears the comparison value when the operator becomes exists', async () => {
    const { user, saved } = setup();
    const rules = section('Alert rules');
    // A saved rule is folded to one line until opened.
    expect(within(rules).queryByRole('textbox', { name: 'Comparison value' })).toBeNull();
    await user.click(within(rules).getByRole('button', { name: /^Edit rule / }));
    expect(within(rules).getByRole('textbox', { name: 'Comparison value' })).toHaveValue('300');
    await choose(user, within(rules).getByRole('combobox', { name: 'Operator' }), 'exists');
    expect(within(rules).queryByRole('textbox', { name: 'Comparison value' })).toBeNull();
    await choose(user, within(rules).getByRole('combobox', { name: 'Operator' }), 'gte');
    expect(within(rules).getByRole('textbox', { name: 'Comparison value' })).toHaveValue('');
    await choose(user, within(rules).getByRole('combobox', { name: 'Operator' }), 'exists');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saved[0]?.responseWatchPresets?.all[0]?.condition).toMatchObject({ operator: 'exists' });
    expect(saved[0]?.responseWatchPresets?.all[0]?.condition.value).toBeUndefined();
  });

  it("clears a preset's group when its group is deleted", async () => {
    const { user, saved } = setup();
    const rules = section('Alert rules');
    await user.click(within(rules).getByRole('button', { name: /^Edit rule / }));
    expect(within(rules).getByRole('combobox', { name: 'Group' })).toHaveValue('Price');
    await user.click(within(rules).getByRole('button', { name: 'Remove group Price' }));
    expect(within(rules).getByRole('combobox', { name: 'Group' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saved[0]?.responseWatchPresets?.groups).toEqual([]);
    expect(saved[0]?.responseWatchPresets?.all[0]?.group).toBeNull();
  });
});

describe('TemplateEditor validation and actions', () => {
  it("shows the editor schema's messages and sends nothing", async () => {
    const { user, saved } = setup({ template: null });
    await user.click(screen.getByRole('button', { name: 'Add override field' }));
    await choose(user, screen.getByRole('combobox', { name: 'Type' }), 'SELECT');
    await user.click(screen.getByRole('textbox', { name: 'Default query (JSON object)' }));
    await user.paste('{ nope');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    for (const message of [
      templateMessages.editorNameRequired,
      templateMessages.resortCodeRequired,
      templateMessages.editorTargetUrlInvalid,
      messages.common.invalidJson,
      fieldMessages.pathRequired,
      fieldMessages.labelRequired,
      fieldMessages.selectNeedsOption,
      watchMessages.atLeastOnePreset,
    ]) {
      expect(screen.getAllByText(message).length).toBeGreaterThan(0);
    }
    expect(saved).toHaveLength(0);
  });

  it('offers the live test only after saving', () => {
    setup({ template: null });
    expect(screen.getByText(templateMessages.saveBeforeTest)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run live test' })).toBeDisabled();
  });

  it('shows the test result and then generates basic alert rules from it', async () => {
    const answer: TemplateTestAnswer = {
      request: { url: stored.targetUrl, method: 'POST', headers: {}, query: {}, body: {} },
      response: { status: 200, data: { rooms: [{ name: 'Garden', nightlyPrice: 420 }] } },
      durationMs: 38,
      error: null,
    };
    const { user } = setup({ onTest: async () => answer });
    const generate = screen.getByRole('button', { name: 'Generate basic alert rules' });
    expect(generate).toBeDisabled();
    expect(screen.getByText(generatorMessages.needSuccessfulTest)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Run live test' }));
    const result = await screen.findByRole('region', { name: 'Live test result' });
    expect(within(result).getByText('Status: 200')).toBeInTheDocument();
    expect(within(result).getByText('38 ms')).toBeInTheDocument();
    await user.click(generate);
    // A checklist to pick from first: nothing is added yet.
    const picker = screen.getByRole('group', { name: 'Generated rules' });
    expect(within(picker).getByRole('status')).toHaveTextContent(pickerTexts.generated(1));
    expect(screen.getAllByTestId('preset')).toHaveLength(1);
    const [candidate] = within(picker).getAllByRole('checkbox');
    expect(candidate).toBeChecked();
    await user.click(within(picker).getByRole('button', { name: 'Add 1 rule' }));
    expect(screen.getByRole('status')).toHaveTextContent(pickerTexts.added(1));
    const presets = screen.getAllByTestId('preset');
    expect(presets).toHaveLength(2);
    expect(presets[1]).toHaveTextContent('nightlyPrice');
  });

  it('shows the fallback when the test call fails without a message', async () => {
    const { user } = setup({
      onTest: async () => {
        throw new Error('offline');
      },
    });
    await user.click(screen.getByRole('button', { name: 'Run live test' }));
    expect(await screen.findByText(templateMessages.testFailed)).toBeInTheDocument();
  });

  it('asks for a generator first and refuses an empty group name', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Load sample' }));
    expect(screen.getByText(generatorMessages.selectTemplate)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New group' }));
    await user.type(screen.getByRole('textbox', { name: 'New group name' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    expect(screen.getByText(templateGroupMessages.nameEmpty)).toBeInTheDocument();
  });

  it('saves the edited template and reports it', async () => {
    const { user, saved } = setup();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Poly deluxe rooms');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(await screen.findByText('Template saved.')).toBeInTheDocument();
    expect(saved[0]).toMatchObject({
      name: 'Poly deluxe rooms',
      resortCode: 'POLY',
      defaultBody: { party: { adults: 2 } },
      editableFields: [{ path: 'roomType', options: [{ value: 'STD', label: 'Standard' }], displayOrder: 0 }],
    });
  });
});
