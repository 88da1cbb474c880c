import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { ImportProxiesResult } from '@resort/shared';

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
        <Table.ScrollContainer minWidth={480}>
          <Table striped verticalSpacing={4} fz="sm">
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
                  <Table.Td>{error.line}</Table.Td>
                  <Table.Td>{error.reason}</Table.Td>
                  <Table.Td>
                    <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                      {error.content}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          Every line was read.
        </Text>
      )}
    </Stack>
  );
}
