import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { templateGroupCreateInput, templateGroupMessages } from '@resort/shared';
import { useState } from 'react';
import type { TemplateGroupRecord } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';

/** Pick a template group, or create one inline by name and pick it. */
export function TemplateGroupPicker({
  groups,
  groupsError,
  value,
  error,
  onChange,
  onCreateGroup,
}: {
  groups: readonly TemplateGroupRecord[] | undefined;
  groupsError: string | null;
  value: string | null;
  error?: React.ReactNode;
  onChange: (id: string | null) => void;
  onCreateGroup: (name: string) => Promise<TemplateGroupRecord>;
}) {
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const data = [...(groups ?? [])]
    .sort((a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name))
    .map((g) => ({ value: g.id, label: g.name }));

  async function create() {
    const parsed = templateGroupCreateInput.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? templateGroupMessages.nameEmpty);
      return;
    }
    setBusy(true);
    setNameError(null);
    try {
      const group = await onCreateGroup(parsed.data.name);
      onChange(group.id);
      setName('');
      setCreating(false);
    } catch (failure) {
      setNameError(errorMessage(failure, templateGroupMessages.createFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={6}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Select
          label="Template group"
          placeholder="No group"
          data={data}
          value={value}
          onChange={onChange}
          clearable
          error={groupsError ?? error}
          style={{ flex: 1 }}
        />
        <Button variant="default" onClick={() => setCreating((c) => !c)} mb={groupsError || error ? 22 : 0}>
          {creating ? 'Cancel' : 'New group'}
        </Button>
      </Group>
      {creating ? (
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            aria-label="New group name"
            placeholder="New group name"
            value={name}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                void create();
              }
            }}
            style={{ flex: 1 }}
          />
          <Button onClick={() => void create()} loading={busy}>
            Create group
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
