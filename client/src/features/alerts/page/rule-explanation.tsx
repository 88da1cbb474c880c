import { Badge, Stack, Table, Text } from '@mantine/core';
import type { AlertInsight } from '@resort/shared';

type Explanation = NonNullable<AlertInsight['explanation']>;

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function list(values: unknown[], count: number): string {
  if (count === 0) return 'nothing';
  const more = count > values.length ? ` and ${count - values.length} more` : '';
  return `${values.map(show).join(', ')}${more}`;
}

function verdict(e: Explanation): string {
  const parts: string[] = [];
  if (e.allHeld !== null) parts.push(e.allHeld ? 'every "all" rule held' : 'an "all" rule did not hold');
  if (e.anyHeld !== null) parts.push(e.anyHeld ? 'at least one "any" rule held' : 'no "any" rule held');
  return `${e.matched ? 'Matched' : 'Not matched'}: ${parts.join(' and ')}.`;
}

/** The latest answer judged rule by rule by the shared evaluator. */
export function RuleExplanation({ explanation }: { explanation: Explanation | null }) {
  if (!explanation)
    return (
      <Text c="dimmed" size="sm">
        No answer to explain yet.
      </Text>
    );
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} data-testid="explanation-verdict">
        {verdict(explanation)}
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={4} fz="sm" data-testid="rule-explanation">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Rule</Table.Th>
              <Table.Th>Expected</Table.Th>
              <Table.Th>Found</Table.Th>
              <Table.Th>Matched</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {explanation.rules.map((r) => (
              <Table.Tr key={`${r.group}-${r.path}-${r.operator}-${show(r.expected)}`}>
                <Table.Td>
                  <div>{r.label ?? r.path}</div>
                  <Text size="xs" c="dimmed">{`${r.group} · ${r.path}`}</Text>
                </Table.Td>
                <Table.Td>
                  {r.operator === 'exists' ? r.operatorWords : `${r.operatorWords} ${show(r.expected)}`}
                  {r.previous !== undefined ? (
                    <Text size="xs" c="dimmed">{`previously ${show(r.previous)}`}</Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{list(r.found, r.foundCount)}</Table.Td>
                <Table.Td>
                  {r.holds ? list(r.matched, r.matchedCount) : '—'}
                  {r.words.length > 0 ? (
                    <Text size="xs" c="dimmed">
                      {r.words.slice(0, 3).join('; ')}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" color={r.holds ? 'green' : 'gray'}>
                    {r.holds ? 'Pass' : r.missingRequired ? 'Fail (required path missing)' : 'Fail'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
