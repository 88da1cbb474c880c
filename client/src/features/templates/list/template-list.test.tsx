import { templateMessages } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from '@/api/contracts.ts';
import { renderWithMantine, renderWithRouter } from '@/test/render.tsx';
import { templateCardTexts } from './template-card.tsx';
import { TemplateList, templateListTexts } from './template-list.tsx';

const base: TemplateRecord = {
  id: 'tpl-1',
  name: 'Poly rooms',
  description: 'Polynesian room lookup',
  resortCode: 'POLY',
  templateGroupId: 'g1',
  templateGroup: { name: 'Deluxe', displayOrder: 0 },
  targetUrl: 'https://resort.example.com/api/rooms',
  method: 'POST',
  pollingIntervalSeconds: 90,
  defaultHeaders: {},
  defaultQuery: {},
  responseWatchConfig: null,
  responseWatchPresets: null,
  isActive: true,
  editableFields: [],
  stay: null,
  createdAt: '2026-01-05T10:00:00.000Z',
};

const list = (props: Partial<Parameters<typeof TemplateList>[0]>) => (
  <TemplateList
    templates={undefined}
    loading={false}
    refreshing={false}
    error={null}
    onRefresh={() => {}}
    {...props}
  />
);

describe('TemplateList', () => {
  it('shows every field of a card, and the fallbacks', async () => {
    await renderWithRouter(
      list({
        templates: [
          base,
          {
            ...base,
            id: 'tpl-2',
            name: 'Bare',
            description: null,
            templateGroup: null,
            isActive: false,
            createdAt: '',
          },
        ],
      }),
    );
    const [full, bare] = screen.getAllByTestId('template-card');
    const first = within(full!);
    for (const text of [
      'Poly rooms',
      'Active',
      'Polynesian room lookup',
      'POLY',
      'Deluxe',
      'POST',
      '90 seconds',
    ]) {
      expect(first.getByText(text)).toBeInTheDocument();
    }
    expect(first.getByText(/Jan 5, 2026/)).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Edit Poly rooms' })).toHaveAttribute(
      'href',
      '/admin/templates/tpl-1/edit',
    );
    const second = within(bare!);
    expect(second.getByText('Inactive')).toBeInTheDocument();
    expect(second.getByText(templateCardTexts.noDescription)).toBeInTheDocument();
    expect(second.getByText(templateCardTexts.noGroup)).toBeInTheDocument();
    expect(second.getByText(templateCardTexts.noDate)).toBeInTheDocument();
  });

  it('shows the loading, empty and error states and refreshes', async () => {
    const user = userEvent.setup();
    let refreshed = 0;
    const loading = renderWithMantine(list({ loading: true }));
    expect(screen.getByText(templateListTexts.loading)).toBeInTheDocument();
    loading.unmount();
    const empty = renderWithMantine(list({ templates: [], onRefresh: () => refreshed++ }));
    expect(screen.getByText(templateListTexts.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(refreshed).toBe(1);
    empty.unmount();
    renderWithMantine(list({ error: templateMessages.loadListFailed }));
    expect(screen.getByRole('alert')).toHaveTextContent(templateMessages.loadListFailed);
  });
});
