import type { TemplateCreateInputRaw } from '@resort/shared';
import { useParams } from '@tanstack/react-router';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from '@/api/contracts.ts';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { type Handlers, renderWithApi } from '@/test/api-harness.tsx';
import { TemplateEditorScreen } from './template-editor-screen.tsx';

const sampleTemplate: TemplateCreateInputRaw = {
  name: 'POLY room availability',
  resortCode: 'POLY',
  targetUrl: 'https://resort.example.com/api/availability/rooms',
  method: 'POST',
  defaultBody: { stay: { checkIn: '2099-01-01' } },
  editableFields: [{ target: 'BODY', path: 'stay.checkIn', label: 'Check-in date', fieldType: 'DATE' }],
  responseWatchPresets: {
    all: [
      {
        id: 'open',
        label: 'Rooms open',
        condition: { path: 'rooms[*].available', operator: 'equals', value: true },
      },
    ],
  },
};

const sample = {
  generatorId: 'resort-room-availability',
  label: 'Resort room availability',
  template: sampleTemplate,
  roomLookup: {
    source: 'example',
    sourceUrl: null,
    resortCode: 'POLY',
    roomType: null,
    checkIn: '2099-01-01',
    checkOut: '2099-01-02',
    nights: 1,
    adults: 2,
    children: 0,
    childAges: [],
    placement: {},
  },
};

/** What the server answers for a created template: the input with its defaults filled in. */
function stored(input: Record<string, unknown>, id: string): TemplateRecord {
  const defaults: Omit<
    TemplateRecord,
    'id' | 'name' | 'resortCode' | 'targetUrl' | 'method' | 'editableFields'
  > = {
    description: null,
    templateGroupId: null,
    templateGroup: null,
    pollingIntervalSeconds: 60,
    defaultHeaders: {},
    defaultQuery: {},
    responseWatchConfig: null,
    responseWatchPresets: null,
    isActive: true,
    stay: null,
    createdAt: '2026-02-01T00:00:00.000Z',
  };
  return { ...defaults, ...(input as Omit<TemplateRecord, 'id'>), id };
}

function NewRoute() {
  return <TemplateEditorScreen />;
}
function EditRoute() {
  const { templateId } = useParams({ strict: false }) as { templateId: string };
  return <TemplateEditorScreen templateId={templateId} />;
}
function ListRoute() {
  return (
    <>
      <h1>Template Administration</h1>
      <NavigationFeedback />
    </>
  );
}
const routes = {
  '/admin/templates': ListRoute,
  '/admin/templates/new': NewRoute,
  '/admin/templates/$templateId/edit': EditRoute,
};

describe('TemplateEditorScreen', () => {
  it('creates from a generator sample, then edits it in place of the create page', async () => {
    const user = userEvent.setup();
    const saved = new Map<string, TemplateRecord>();
    const handlers: Handlers = {
      'templateGroups.list': () => [],
      'templates.generators': () => [{ id: sample.generatorId, label: sample.label, description: 'Rooms' }],
      'templates.generatorSample': () => sample,
      'templates.list': () => [...saved.values()],
      'templates.create': (input) => {
        const template = stored(input as Record<string, unknown>, 'tpl-9');
        saved.set(template.id, template);
        return template;
      },
      'templates.get': (input) => saved.get((input as { id: string }).id),
      'templates.delete': (input) => {
        saved.delete((input as { id: string }).id);
      },
    };
    const { router, calls } = renderWithApi({ handlers, path: '/admin/templates', routes });
    await router.navigate({ to: '/admin/templates/new' });
    await user.click(await screen.findByRole('combobox', { name: 'Template generator' }));
    await user.click(await screen.findByRole('option', { name: 'Resort room availability' }));
    await user.click(screen.getByRole('button', { name: 'Load sample' }));
    expect(await screen.findByDisplayValue('POLY room availability')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create template' }));

    expect(await screen.findByText('Template "POLY room availability" created.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/templates/tpl-9/edit');
    expect(calls.find((c) => c.path === 'templates.create')?.input).toMatchObject({
      name: 'POLY room availability',
      method: 'POST',
      editableFields: [{ path: 'stay.checkIn', fieldType: 'DATE', displayOrder: 0 }],
    });
    expect(screen.getByRole('button', { name: 'Run live test' })).toBeEnabled();

    // The create page was replaced: going back returns to the list, not to an empty form.
    router.history.back();
    expect(await screen.findByRole('heading', { name: 'Template Administration' })).toBeInTheDocument();

    await router.navigate({ to: '/admin/templates/$templateId/edit', params: { templateId: 'tpl-9' } });
    await user.click(await screen.findByRole('button', { name: 'Delete template' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Template "POLY room availability" deleted.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/templates');
  });
});
