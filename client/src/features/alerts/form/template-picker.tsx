import { Select, SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TemplateGroupRecord, TemplateRecord } from '@/api/contracts.ts';

/** Group first, then a template of that group (all templates while no group is chosen). */
export function TemplatePicker({
  templates,
  groups,
  groupId,
  templateId,
  templateError,
  loadError,
  disabled,
  onGroupChange,
  onTemplateChange,
}: {
  templates: readonly TemplateRecord[];
  groups: readonly TemplateGroupRecord[];
  groupId: string | null;
  templateId: string | null;
  templateError?: ReactNode;
  loadError: string | null;
  disabled: boolean;
  onGroupChange: (groupId: string | null) => void;
  onTemplateChange: (templateId: string | null) => void;
}) {
  const offered = templates.filter((t) => !groupId || t.templateGroupId === groupId);
  const sortedGroups = [...groups].sort(
    (a, b) => a.displayOrder - b.displayOrder || a.name.localeCompare(b.name),
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Select
        label="Group"
        placeholder="All groups"
        data={sortedGroups.map((g) => ({ value: g.id, label: g.name }))}
        value={groupId}
        onChange={onGroupChange}
        clearable
        disabled={disabled}
      />
      <Select
        label="Template"
        placeholder="Choose a template"
        withAsterisk
        searchable
        nothingFoundMessage="No template in this group"
        data={offered.map((t) => ({ value: t.id, label: t.name }))}
        value={templateId}
        onChange={onTemplateChange}
        error={loadError ?? templateError}
        disabled={disabled}
      />
    </SimpleGrid>
  );
}
