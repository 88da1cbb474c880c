import { ARCHIVE_PAGE_SIZE, type ArchivedAlert } from '@resort/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApi } from '@/test/api-harness.tsx';
import { ArchivedScreen } from './archived-screen.tsx';

/** Trip 27 (archived last) down to Trip 01: page 1 holds 27…03, page 2 holds 02 and 01. */
const archived: ArchivedAlert[] = Array.from({ length: 27 }, (_, i) => {
  const n = String(27 - i).padStart(2, '0');
  return {
    id: `00000000-0000-4000-8000-0000000000${n}`,
    title: `Trip ${n}`,
    templateName: 'Lakeside resort',
    partyName: null,
    tags: [],
    previousStatus: 'BOOKED',
    archivedAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  };
});

/** The archive's pages, each answer held until the test lets it through. */
function heldArchive() {
  const waiting: (() => void)[] = [];
  const list = (input: unknown) => {
    const { page } = input as { page: number };
    const items = archived.slice((page - 1) * ARCHIVE_PAGE_SIZE, page * ARCHIVE_PAGE_SIZE);
    return new Promise((resolve) => {
      waiting.push(() => resolve({ items, page, pageSize: ARCHIVE_PAGE_SIZE, total: archived.length }));
    });
  };
  const release = async () => {
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    for (const answer of waiting.splice(0)) answer();
  };
  return { list, release };
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

describe('the Archived screen', () => {
  it('shows loading until the first answer, and no selecting from a page while the next one loads', async () => {
    const user = userEvent.setup();
    const archive = heldArchive();
    renderWithApi({ handlers: { 'archive.list': archive.list }, path: '/', routes: { '/': ArchivedScreen } });
    expect(await screen.findByText('Loading archived alerts…')).toBeInTheDocument();
    await archive.release();
    expect(await screen.findByText('27 archived · 0 selected')).toBeInTheDocument();
    await user.click(checkbox('Trip 27'));
    expect(screen.getByText('27 archived · 1 selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    // Page 1's rows stay while page 2 loads, but cannot be selected from.
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    expect(checkbox('Trip 26')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select this page' })).toBeDisabled();
    await archive.release();
    expect(await screen.findByRole('checkbox', { name: 'Select Trip 02' })).toBeEnabled();
    expect(screen.queryByRole('checkbox', { name: 'Select Trip 26' })).toBeNull();
  });

  it('names what a permanent delete takes, up to three alerts, across pages', async () => {
    const user = userEvent.setup();
    const archive = heldArchive();
    renderWithApi({ handlers: { 'archive.list': archive.list }, path: '/', routes: { '/': ArchivedScreen } });
    await archive.release();
    await screen.findByText('27 archived · 0 selected');
    const confirmation = async () => {
      await user.click(screen.getByRole('button', { name: 'Delete permanently' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete permanently' });
      const text = within(dialog).getByText(/^Delete .* permanently\?/).textContent;
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      return text;
    };

    await user.click(checkbox('Trip 27'));
    expect(await confirmation()).toBe(
      'Delete Trip 27 permanently? Its notifications and poll history go too. This cannot be undone.',
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await archive.release();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Trip 02' }));
    expect(await confirmation()).toBe(
      'Delete Trip 27 and Trip 02 permanently? Their notifications and poll history go too. This cannot be undone.',
    );
    await user.click(checkbox('Trip 01'));
    expect(await confirmation()).toBe(
      'Delete Trip 27, Trip 02 and Trip 01 permanently? Their notifications and poll history go too. This cannot be undone.',
    );
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    await archive.release();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Trip 26' }));
    expect(screen.getByText('27 archived · 4 selected')).toBeInTheDocument();
    expect(await confirmation()).toBe(
      'Delete 4 alerts permanently? Their notifications and poll history go too. This cannot be undone.',
    );
  });
});
