import { Chip, Group } from '@mantine/core';
import type { StatusChipOption } from './alert-filters.ts';

export function StatusChips({
  options,
  value,
  onChange,
}: {
  options: readonly StatusChipOption[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Chip.Group multiple={false} value={value} onChange={onChange}>
      <Group gap="xs" role="group" aria-label="Filter by status">
        {options.map((option) => (
          <Chip key={option.value} value={option.value} disabled={option.count === 0} size="sm">
            {`${option.label} (${option.count})`}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}
