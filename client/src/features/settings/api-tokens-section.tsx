import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type ApiToken,
  type ApiTokenScope,
  apiTokenMessages,
  type CreateApiTokenInput,
} from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { SectionCard } from './section-card.tsx';

const DAY_MS = 86_400_000;
const expiryChoices = [
  { value: 'never', label: 'No expiry' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];
const scopeChoices: { value: ApiTokenScope; label: string }[] = [
  { value: 'read-only', label: 'Read only' },
  { value: 'read-write', label: 'Read and write' },
];

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

/** The form, the token shown once, and the list: no data fetching here (ApiTokensSection does it). */
export function ApiTokensPanel({
  tokens,
  onCreate,
  onRevoke,
  now = () => Date.now(),
}: {
  tokens: readonly ApiToken[];
  onCreate: (input: CreateApiTokenInput) => Promise<{ token: string }>;
  onRevoke: (id: string) => Promise<void>;
  now?: () => number;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read-only');
  const [expiry, setExpiry] = useState('90');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(apiTokenMessages.nameRequired);
      return;
    }
    setNameError(null);
    setError(null);
    setBusy(true);
    try {
      const expiresAt = expiry === 'never' ? null : new Date(now() + Number(expiry) * DAY_MS).toISOString();
      const created = await onCreate({ name: name.trim(), scope, expiresAt });
      setShown(created.token);
      setName('');
    } catch (e) {
      setError(errorMessage(e, apiTokenMessages.createFailed));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setError(null);
    try {
      await onRevoke(id);
    } catch (e) {
      setError(errorMessage(e, apiTokenMessages.revokeFailed));
    }
  }

  return (
    <Stack gap="md">
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      {shown ? (
        <Alert color="teal" role="status" title="Your new token">
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is shown this once and cannot be shown again.</Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ wordBreak: 'break-all' }} data-testid="new-api-token">
                {shown}
              </Code>
              <CopyButton value={shown}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Group justify="flex-end">
              <Button size="xs" variant="subtle" onClick={() => setShown(null)}>
                Done
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <form onSubmit={create} noValidate>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Token name"
            placeholder="e.g. Booking script"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.currentTarget.value)}
            error={nameError}
            style={{ flex: 2, minWidth: 180 }}
          />
          <Select
            label="Scope"
            data={scopeChoices}
            value={scope}
            allowDeselect={false}
            onChange={(v) => setScope((v as ApiTokenScope | null) ?? 'read-only')}
            style={{ flex: 1, minWidth: 150 }}
          />
          <Select
            label="Expires"
            data={expiryChoices}
            value={expiry}
            allowDeselect={false}
            onChange={(v) => setExpiry(v ?? 'never')}
            style={{ flex: 1, minWidth: 120 }}
          />
          <Button type="submit" loading={busy}>
            Create token
          </Button>
        </Group>
      </form>
      {tokens.length === 0 ? (
        <Text size="sm" c="dimmed">
          No API tokens yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th>Token</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((t) => {
                const expired = t.expiresAt !== null && new Date(t.expiresAt).getTime() <= now();
                return (
                  <Table.Tr key={t.id}>
                    <Table.Td>{t.name}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={t.scope === 'read-write' ? 'orange' : 'blue'}>
                        {t.scope === 'read-write' ? 'Read and write' : 'Read only'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Code>{t.displayPrefix}…</Code>
                    </Table.Td>
                    <Table.Td>{when(t.createdAt, '—')}</Table.Td>
                    <Table.Td>{when(t.lastUsedAt, 'Never')}</Table.Td>
                    <Table.Td>{expired ? 'Expired' : when(t.expiresAt, 'Never')}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        aria-label={`Revoke ${t.name}`}
                        onClick={() => revoke(t.id)}
                      >
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** Settings → API tokens: personal tokens for scripts and integrations (docs/api.md). */
export function ApiTokensSection() {
  const api = useApi();
  const list = useQuery(api.apiTokens.list());
  const create = useMutation(api.apiTokens.create());
  const revoke = useMutation(api.apiTokens.revoke());

  return (
    <SectionCard
      id="settings-api-tokens"
      title="API tokens"
      description="Personal tokens for scripts and integrations on the REST API (/api/docs). A token acts as you: read only, or read and write."
      error={list.isError ? errorMessage(list.error, apiTokenMessages.loadFailed) : null}
    >
      <ApiTokensPanel
        tokens={list.data ?? []}
        onCreate={create.mutateAsync}
        onRevoke={async (id) => {
          await revoke.mutateAsync({ id });
        }}
      />
    </SectionCard>
  );
}
