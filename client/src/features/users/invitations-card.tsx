import { Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  accountLevelLabels,
  accountMessages,
  type CreatedInvitation,
  createInvitationInput,
  type InvitableRole,
} from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import type { Feedback } from '@/components/feedback.tsx';
import classes from '@/components/responsive-table.module.css';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { WholeBadge } from '@/components/whole-badge';
import { IssuedLink } from './issued-link.tsx';
import { when } from './user-table.tsx';

const statusColors = { pending: 'blue', used: 'teal', expired: 'gray', revoked: 'gray' } as const;

/** Invitations: create one (the link is shown once), list them, revoke a pending one. */
export function InvitationsCard({
  canInviteAdmin,
  onDone,
}: {
  canInviteAdmin: boolean;
  onDone: (f: Feedback) => void;
}) {
  const api = useApi();
  const list = useQuery(api.users.invitations());
  const create = useMutation(api.users.createInvitation());
  const revoke = useMutation(api.users.revokeInvitation());
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const form = useForm<{ role: InvitableRole; email: string }>({
    mode: 'controlled',
    initialValues: { role: 'user', email: '' },
    validate: schemaResolver(createInvitationInput, { sync: true }),
  });
  const roles = (canInviteAdmin ? (['user', 'admin'] as const) : (['user'] as const)).map((value) => ({
    value,
    label: accountLevelLabels[value],
  }));

  const submit = form.onSubmit(async (values) => {
    try {
      const invitation = await create.mutateAsync({ role: values.role, email: values.email.trim() || null });
      setCreated(invitation);
      form.reset();
      onDone({
        tone: 'success',
        message:
          invitation.emailed || !invitation.email
            ? accountMessages.invitationCreated
            : accountMessages.invitationNotEmailed,
      });
    } catch (error) {
      onDone({ tone: 'error', message: errorMessage(error, accountMessages.updateUserFailed) });
    }
  });

  const revokeOne = async (id: string) => {
    try {
      await revoke.mutateAsync({ id });
      onDone({ tone: 'success', message: accountMessages.invitationRevoked });
    } catch (error) {
      onDone({ tone: 'error', message: errorMessage(error, accountMessages.updateUserFailed) });
    }
  };

  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Invitations
      </Title>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Invite as"
            data={roles}
            allowDeselect={false}
            key={form.key('role')}
            {...form.getInputProps('role')}
          />
          <TextInput
            label="E-mail (optional)"
            description="Only this address can register through the link."
            type="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" loading={create.isPending}>
            Create invitation
          </Button>
        </Group>
      </form>
      {created ? (
        <Stack mt="md">
          <IssuedLink label="Invitation link" url={created.url} expiresAt={created.expiresAt} />
        </Stack>
      ) : null}
      <Stack mt="md">
        {list.isPending ? <LoadingState label="Loading invitations…" /> : null}
        {list.error ? (
          <ErrorState
            message={errorMessage(list.error, accountMessages.loadUsersFailed)}
            onRetry={() => void list.refetch()}
          />
        ) : null}
        {list.data && list.data.length === 0 ? <EmptyState message="No invitations yet." /> : null}
        {list.data && list.data.length > 0 ? (
          <Table className={classes.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>For</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((inv) => (
                <Table.Tr key={inv.id}>
                  <Table.Td data-label="For" className={classes.wrap}>
                    {inv.email ?? <Text c="dimmed">Anyone with the link</Text>}
                  </Table.Td>
                  <Table.Td data-label="Role">{accountLevelLabels[inv.role]}</Table.Td>
                  <Table.Td data-label="Status">
                    <WholeBadge color={statusColors[inv.status]} variant="light">
                      {inv.status}
                    </WholeBadge>
                  </Table.Td>
                  <Table.Td data-label="Expires">{when(inv.expiresAt)}</Table.Td>
                  <Table.Td data-label="Actions">
                    {inv.status === 'pending' ? (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => void revokeOne(inv.id)}
                        aria-label={`Revoke the invitation for ${inv.email ?? 'anyone'}`}
                      >
                        Revoke
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Card>
  );
}
