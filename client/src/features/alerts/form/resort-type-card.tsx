import { Badge, Group, Select, SimpleGrid, Spoiler, Stack, Table, Text } from '@mantine/core';

export type ResortType = 'Deluxe' | 'Moderate' | 'Value';

/** The resort categories by resort name: reference data, read only. */
export const resortTypes: readonly { resort: string; type: ResortType }[] = [
  { resort: "Disney's Grand Floridian Resort & Spa", type: 'Deluxe' },
  { resort: "Disney's Polynesian Village Resort", type: 'Deluxe' },
  { resort: "Disney's Contemporary Resort", type: 'Deluxe' },
  { resort: "Disney's Wilderness Lodge", type: 'Deluxe' },
  { resort: "Disney's Yacht Club Resort", type: 'Deluxe' },
  { resort: "Disney's Beach Club Resort", type: 'Deluxe' },
  { resort: "Disney's BoardWalk Inn", type: 'Deluxe' },
  { resort: "Disney's Animal Kingdom Lodge", type: 'Deluxe' },
  { resort: "Disney's Riviera Resort", type: 'Deluxe' },
  { resort: "Disney's Caribbean Beach Resort", type: 'Moderate' },
  { resort: "Disney's Coronado Springs Resort", type: 'Moderate' },
  { resort: "Disney's Port Orleans Resort – French Quarter", type: 'Moderate' },
  { resort: "Disney's Port Orleans Resort – Riverside", type: 'Moderate' },
  { resort: "Disney's Art of Animation Resort", type: 'Value' },
  { resort: "Disney's Pop Century Resort", type: 'Value' },
  { resort: "Disney's All-Star Movies Resort", type: 'Value' },
  { resort: "Disney's All-Star Music Resort", type: 'Value' },
  { resort: "Disney's All-Star Sports Resort", type: 'Value' },
];

const colors: Record<ResortType, string> = { Deluxe: 'grape', Moderate: 'blue', Value: 'teal' };

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/disney's|resort|&|spa|–|-/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** The category of a template's resort, matched on the resort's distinctive name words. */
export function resortTypeOf(templateName: string): ResortType | null {
  const name = ` ${words(templateName).join(' ')} `;
  const hit = resortTypes.find(({ resort }) => name.includes(` ${words(resort).join(' ')} `));
  return hit?.type ?? null;
}

/** Resort type (read only) and offer type (coming soon). */
export function ResortTypeCard({ templateName }: { templateName: string | null }) {
  const current = templateName ? resortTypeOf(templateName) : null;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Resort type
          </Text>
          <Group gap="xs">
            {current ? (
              <Badge color={colors[current]} variant="light">
                {current}
              </Badge>
            ) : (
              <Text size="sm" c="dimmed">
                Set by the resort
              </Text>
            )}
          </Group>
        </Stack>
        <Select label="Offer type" description="Coming soon" placeholder="Any offer" data={[]} disabled />
      </SimpleGrid>
      <Spoiler maxHeight={140} showLabel="Show all resorts" hideLabel="Show fewer">
        <Table fz="sm" verticalSpacing={4} aria-label="Resort type mapping">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Resort</Table.Th>
              <Table.Th>Type</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {resortTypes.map(({ resort, type }) => (
              <Table.Tr key={resort}>
                <Table.Td>{resort}</Table.Td>
                <Table.Td>{type}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Spoiler>
    </Stack>
  );
}
