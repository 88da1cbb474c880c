import { Badge, Button, Table, Text } from '@mantine/core';
import type { SampleAlert } from '../../../sample/sample-data.ts';
import { discountLabels, sampleStatusColors, sampleStatusLabels } from '../../../sample/sample-labels.ts';

export function SampleStatusBadge({ status }: { status: SampleAlert['status'] }) {
  return (
    <Badge color={sampleStatusColors[status]} variant="light">
      {sampleStatusLabels[status]}
    </Badge>
  );
}

export function SampleAlertTable({
  alerts,
  onEdit,
}: {
  alerts: readonly SampleAlert[];
  onEdit?: (alert: SampleAlert) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Alert</Table.Th>
            <Table.Th>Dates</Table.Th>
            <Table.Th>Family</Table.Th>
            <Table.Th>Discount</Table.Th>
            <Table.Th>Status</Table.Th>
            {onEdit ? <Table.Th aria-label="Actions" /> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {alerts.map((alert) => (
            <Table.Tr key={alert.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {alert.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {`${alert.type === 'party' ? 'Party' : 'Resort'} · ${alert.watchlistName} · ${alert.quarter}`}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {alert.dates.from === alert.dates.to
                    ? `${alert.dates.from}${alert.dates.time ? ` ${alert.dates.time}` : ''}`
                    : `${alert.dates.from} → ${alert.dates.to}`}
                </Text>
              </Table.Td>
              <Table.Td>{alert.family}</Table.Td>
              <Table.Td>{discountLabels[alert.discount]}</Table.Td>
              <Table.Td>
                <SampleStatusBadge status={alert.status} />
              </Table.Td>
              {onEdit ? (
                <Table.Td>
                  <Button size="xs" variant="light" onClick={() => onEdit(alert)}>
                    Edit
                  </Button>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
