import { Button, Table, Text } from '@mantine/core';
import { type AdminUser, accountLevel, accountLevelLabels } from '@resort/shared';
import classes from '@/components/responsive-table.module.css';
import { WholeBadge } from '@/components/whole-badge';

export const when = (iso: string | null, none = 'Never') => (iso ? new Date(iso).toLocaleString() : none);
export const displayName = (user: Pick<AdminUser, 'name' | 'email'>) => user.name ?? user.email;

/** The account list: one row per account, opened with its Open button. */
export function UserTable({
  users,
  onOpen,
}: {
  users: readonly AdminUser[];
  onOpen: (user: AdminUser) => void;
}) {
  return (
    <Table className={classes.table} verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Account</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th>Last sign-in</Table.Th>
          <Table.Th>Alerts</Table.Th>
          <Table.Th>Channels</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((user) => (
          <Table.Tr key={user.id}>
            <Table.Td data-label="Account" className={classes.wrap}>
              <Text fw={600}>{user.name ?? 'Unnamed account'}</Text>
              <Text size="sm" c="dimmed">
                {user.email}
              </Text>
              {user.disabled ? (
                <WholeBadge color="red" variant="light">
                  Disabled
                </WholeBadge>
              ) : null}
            </Table.Td>
            <Table.Td data-label="Role">{accountLevelLabels[accountLevel(user.roles)]}</Table.Td>
            <Table.Td data-label="Created">{when(user.createdAt)}</Table.Td>
            <Table.Td data-label="Last sign-in">{when(user.lastSignInAt)}</Table.Td>
            <Table.Td data-label="Alerts">{user.alertCount}</Table.Td>
            <Table.Td data-label="Channels">{user.channelCount}</Table.Td>
            <Table.Td data-label="Actions">
              <Button
                size="xs"
                variant="light"
                onClick={() => onOpen(user)}
                aria-label={`Open ${displayName(user)}`}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
