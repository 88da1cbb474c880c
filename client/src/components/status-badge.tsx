import { Badge } from '@mantine/core';
import { alertStatusLabel } from '@resort/shared';

const colors: Record<string, string> = {
  ACTIVE: 'teal',
  FIRING: 'green',
  BOOKED: 'blue',
  PASSED: 'gray',
  DISABLED: 'gray',
  INACTIVE: 'gray',
  ERROR: 'red',
};

export function AlertStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={colors[status] ?? 'gray'} variant="light" data-status={status}>
      {alertStatusLabel(status)}
    </Badge>
  );
}
