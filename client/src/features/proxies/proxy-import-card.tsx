import { Alert, Button, Checkbox, FileInput, Group, Stack, Text } from '@mantine/core';
import {
  type ImportProxiesInput,
  type ImportProxiesResult,
  isTxtFileName,
  proxyMessages,
} from '@resort/shared';
import { useState } from 'react';
import { errorMessage } from '@/api/http.ts';
import { ProxyImportResult } from './proxy-import-result.tsx';

/**
 * Upload a .txt list: one proxy per line, host:port or host:port:user:password, optionally followed
 * by :protocol. Imported proxies are active unless 'activate by default' is unticked.
 */
export function ProxyImportCard({
  onImport,
}: {
  onImport: (input: ImportProxiesInput) => Promise<ImportProxiesResult>;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [activateByDefault, setActivateByDefault] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportProxiesResult | null>(null);
  const [busy, setBusy] = useState(false);

  function choose(next: File | null) {
    setFile(next);
    setResult(null);
    setError(next && !isTxtFileName(next.name) ? proxyMessages.importMustBeTxt : null);
  }

  async function runImport() {
    if (!file) return;
    if (!isTxtFileName(file.name)) {
      setError(proxyMessages.importMustBeTxt);
      return;
    }
    setError(null);
    setResult(null);
    setBusy(true);
    try {
      let text: string;
      try {
        text = await file.text();
      } catch {
        setError(proxyMessages.readFileFailed);
        return;
      }
      setResult(await onImport({ text, activateByDefault, fileName: file.name }));
    } catch (failure) {
      setError(errorMessage(failure, proxyMessages.importFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        One proxy per line: host:port or host:port:user:password, optionally followed by :http, :https or
        :socks5. Blank lines and lines starting with # are ignored.
      </Text>
      <Group align="flex-end" wrap="wrap">
        <FileInput
          label="Proxy list (.txt)"
          placeholder="Choose a .txt file"
          accept=".txt,text/plain"
          clearable
          value={file}
          onChange={choose}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Checkbox
          label="Activate by default"
          checked={activateByDefault}
          onChange={(event) => setActivateByDefault(event.currentTarget.checked)}
          mb={8}
        />
        <Button onClick={() => void runImport()} loading={busy} disabled={!file}>
          Import
        </Button>
      </Group>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      {result ? <ProxyImportResult result={result} /> : null}
    </Stack>
  );
}
