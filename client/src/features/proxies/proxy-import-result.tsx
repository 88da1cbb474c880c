import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { ImportProxiesResult } from '@resort/shared';
import classes from '@/components/responsive-table.module.css';

/** What an import did: created and skipped counts, and each refused line with its reason. */
export function ProxyImportResult({ result }: { result: ImportProxiesResult }) {
  return (
    <Stack gap="xs" aria-label="Import result" role="region">
      <Group gap="sm">
        <Badge color="teal" variant="light">{`Created: ${result.created}`}</Badge>
        <Badge color="gray" variant="light">{`Skipped: ${result.skipped}`}</Badge>
        <Badge color={result.errors.length > 0 ? 'red' : 'gray'} variant="light">
          {`Errors: ${result.errors.length}`}
        </Badge>
      </Group>
      {result.errors.length > 0 ? (
        <Table striped verticalSpacing={4} fz="sm" className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>Line</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Content</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.errors.map((error) => (
              <Table.Tr key={`${error.line}:${error.content}`} data-testid="import-error">
                <Table.Td data-label="Line">{error.line}</Table.Td>
                <Table.Td data-label="Reason">{error.reason}</Table.Td>
                <Table.Td data-label="Content">
                  <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                    {error.content}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          Every line was read.
        </Text>
      )}
    </Stack>
  );
}
