import { type ImportProxiesInput, type ImportProxiesResult, proxyMessages } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithMantine } from '@/test/render.tsx';
import { ProxyImportCard } from './proxy-import-card.tsx';
import { ProxyImportResult } from './proxy-import-result.tsx';

const fileInput = (container: HTMLElement) => {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
};

describe('ProxyImportResult', () => {
  it('lists created, skipped and every error with line, reason and content', () => {
    renderWithMantine(
      <ProxyImportResult
        result={{
          created: 3,
          skipped: 2,
          errors: [
            { line: 4, reason: proxyMessages.portRange, content: 'proxy.example.com:99999' },
            { line: 7, reason: proxyMessages.credentialsPair, content: '10.0.0.1:8080:user:' },
          ],
        }}
      />,
    );
    expect(screen.getByText('Created: 3')).toBeInTheDocument();
    expect(screen.getByText('Skipped: 2')).toBeInTheDocument();
    expect(screen.getByText('Errors: 2')).toBeInTheDocument();
    const rows = screen.getAllByTestId('import-error');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('4')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(proxyMessages.portRange)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('proxy.example.com:99999')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(proxyMessages.credentialsPair)).toBeInTheDocument();
  });

  it('says every line was read when there are no errors', () => {
    renderWithMantine(<ProxyImportResult result={{ created: 1, skipped: 0, errors: [] }} />);
    expect(screen.getByText('Every line was read.')).toBeInTheDocument();
    expect(screen.queryAllByTestId('import-error')).toHaveLength(0);
  });
});

describe('ProxyImportCard', () => {
  it('sends the file text with activate-by-default and shows the result', async () => {
    const user = userEvent.setup();
    const calls: ImportProxiesInput[] = [];
    const { container } = renderWithMantine(
      <ProxyImportCard
        onImport={async (input): Promise<ImportProxiesResult> => {
          calls.push(input);
          return { created: 1, skipped: 1, errors: [{ line: 3, reason: 'Bad line', content: 'nope' }] };
        }}
      />,
    );
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await user.upload(
      fileInput(container),
      new File(['a.example:8080\nb.example:3128:https\nnope'], 'list.txt'),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Activate by default' }));
    await user.click(importButton);
    expect(await screen.findByText('Created: 1')).toBeInTheDocument();
    expect(screen.getByText('Bad line')).toBeInTheDocument();
    expect(calls).toEqual([
      { text: 'a.example:8080\nb.example:3128:https\nnope', activateByDefault: false, fileName: 'list.txt' },
    ]);
  });

  it('refuses a file that is not .txt', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const calls: ImportProxiesInput[] = [];
    const { container } = renderWithMantine(
      <ProxyImportCard
        onImport={async (input) => {
          calls.push(input);
          return { created: 0, skipped: 0, errors: [] };
        }}
      />,
    );
    await user.upload(fileInput(container), new File(['a:1'], 'proxies.csv'));
    expect(screen.getByRole('alert')).toHaveTextContent(proxyMessages.importMustBeTxt);
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(calls).toHaveLength(0);
  });

  it('shows the server message, or the import fallback when there is none', async () => {
    const user = userEvent.setup();
    const { container } = renderWithMantine(
      <ProxyImportCard
        onImport={async () => {
          throw new Error('network down');
        }}
      />,
    );
    await user.upload(fileInput(container), new File(['a:1'], 'list.txt'));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(proxyMessages.importFailed);
  });
});
