import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A badge that keeps its whole label, for short fixed labels in table cells: Mantine's ellipsis lets
 * a table squeeze a badge to "DELI…" or "NOT MATCH…" when columns compete for width.
 */
export function WholeBadge(props: BadgeProps & { children: ReactNode }) {
  return (
    <Badge
      {...props}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
      style={{ flexShrink: 0, overflow: 'visible' }}
    />
  );
}
