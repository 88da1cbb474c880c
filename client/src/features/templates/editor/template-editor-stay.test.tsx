import type { TemplateCreateInput } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from '@/api/contracts.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { TemplateEditor } from './template-editor.tsx';

const stored: TemplateRecord = {
  id: 'tpl-stay',
  name: 'Lagoon stays',
  description: null,
  resortCode: 'LG',
  templateGroupId: null,
  templateGroup: null,
  targetUrl: 'https://resort.example.com/api/rooms',
  method: 'GET',
  pollingIntervalSeconds: 60,
  defaultHeaders: {},
  defaultQuery: {},
  defaultBody: null,
  responseWatchConfig: null,
  responseWatchPresets: {
    notifyOn: 'everyMatch',
    notifyOnResolved: false,
    debounceSeconds: 0,
    groups: [],
    all: [],
    any: [
      {
        id: 'open',
        label: 'Room open',
        condition: { path: 'rooms[*].open', operator: 'equals', value: true },
      },
    ],
  },
  isActive: true,
  editableFields: [
    { target: 'QUERY', path: 'arrive', label: 'Arrival', fieldType: 'DATE' },
    { target: 'QUERY', path: 'nights', label: 'Nights', fieldType: 'NUMBER' },
  ],
  stay: null,
  createdAt: '2026-01-05T10:00:00.000Z',
};

function setup(template: TemplateRecord) {
  const saved: TemplateCreateInput[] = [];
  renderWithMantine(
    <TemplateEditor
      template={template}
      groups={[]}
      groupsError={null}
      generators={[]}
      onSave={async (data) => {
        saved.push(data);
        return data;
      }}
      onDelete={async () => {}}
      onTest={async () => {
        throw new Error('not used');
      }}
      onCreateGroup={async (name) => ({ id: 'g', name, description: null, displayOrder: 0, createdAt: '' })}
      onLoadSample={async () => undefined}
    />,
  );
  return { saved, user: userEvent.setup() };
}

describe('TemplateEditor: the stay', () => {
  it('names the check-in and nights fields and a booking link, and saves them as the stay', async () => {
    const { saved, user } = setup(stored);
    const stay = screen.getByRole('region', { name: 'Stay (flexible dates)' });
    await user.click(within(stay).getByRole('combobox', { name: 'Check-in field' }));
    await user.click(await screen.findByRole('option', { name: 'Arrival (QUERY arrive)' }));
    await user.click(within(stay).getByRole('radio', { name: 'A number of nights' }));
    await user.click(within(stay).getByRole('combobox', { name: 'Nights field' }));
    await user.click(await screen.findByRole('option', { name: 'Nights (QUERY nights)' }));
    await user.type(
      within(stay).getByRole('textbox', { name: /Booking link/ }),
      'https://resort.example/book?in={{checkIn}&n={{nights}',
    );
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saved).toHaveLength(1);
    expect(saved[0]!.stay).toEqual({
      checkIn: { target: 'QUERY', path: 'arrive' },
      nights: { target: 'QUERY', path: 'nights' },
      bookingUrl: 'https://resort.example/book?in={checkIn}&n={nights}',
    });
  });

  it('keeps a stored stay (its per-night reading included) and clears it when no check-in field is named', async () => {
    const perNight = { path: 'nights', dateField: 'date', availableField: 'open', availableValue: true };
    const { saved, user } = setup({
      ...stored,
      stay: {
        checkIn: { target: 'QUERY', path: 'arrive' },
        nights: { target: 'QUERY', path: 'nights' },
        perNight,
      },
    });
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saved[0]!.stay).toEqual({
      checkIn: { target: 'QUERY', path: 'arrive' },
      nights: { target: 'QUERY', path: 'nights' },
      perNight,
    });
    const stay = screen.getByRole('region', { name: 'Stay (flexible dates)' });
    await user.click(within(stay).getByRole('combobox', { name: 'Check-in field' }));
    await user.click(await screen.findByRole('option', { name: 'None: fixed dates only' }));
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saved[1]!.stay).toBeNull();
  });
});
