import { Button, Group, List, Modal, Select, Stack, Text } from '@mantine/core';
import {
  type AccountLevel,
  type AdminUser,
  accountLevel,
  accountLevelLabels,
  accountLevels,
  accountMessages,
  type IssuedLink as Link,
} from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { WholeBadge } from '@/components/whole-badge';
import { IssuedLink } from './issued-link.tsx';
import { displayName, when } from './user-table.tsx';

const levels = accountLevels.map((value) => ({ value, label: accountLevelLabels[value] }));

/**
 * One account: its figures and alerts, and what an admin does to it. The server decides who may do
 * what (an admin acts on planners only); a refusal shows its message here.
 */
export function UserDetailModal({
  user,
  isSuperAdmin,
  onClose,
  onDeleted,
}: {
  user: AdminUser;
  isSuperAdmin: boolean;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const api = useApi();
  const detail = useQuery(api.users.get(user.id));
  const setDisabled = useMutation(api.users.setDisabled());
  const setLevel = useMutation(api.users.setLevel());
  const remove = useMutation(api.users.remove());
  const issueReset = useMutation(api.users.issuePasswordReset());
  const { feedback, show, clear } = useFeedback();
  const [resetLink, setResetLink] = useState<Link | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const current = detail.data ?? user;
  const name = displayName(current);

  const act = async (action: () => Promise<string | null>) => {
    clear();
    try {
      const message = await action();
      if (message) show({ tone: 'success', message });
    } catch (error) {
      show({ tone: 'error', message: errorMessage(error, accountMessages.updateUserFailed) });
    }
  };

  const toggleDisabled = () =>
    act(async () => {
      const updated = await setDisabled.mutateAsync({ id: user.id, disabled: !current.disabled });
      await detail.refetch();
      return updated.disabled ? accountMessages.userDisabled(name) : accountMessages.userEnabled(name);
    });
  const changeLevel = (level: AccountLevel) =>
    act(async () => {
      await setLevel.mutateAsync({ id: user.id, level });
      await detail.refetch();
      return accountMessages.rolesChanged(name, accountLevelLabels[level]);
    });
  const issue = () =>
    act(async () => {
      setResetLink(await issueReset.mutateAsync({ id: user.id }));
      return null;
    });
  const removeUser = async () => {
    setConfirmDelete(false);
    try {
      await remove.mutateAsync({ id: user.id });
      onDeleted(accountMessages.userDeleted(name));
    } catch (error) {
      show({ tone: 'error', message: errorMessage(error, accountMessages.updateUserFailed) });
    }
  };

  return (
    <Modal opened onClose={onClose} title={name} size="lg">
      <Stack>
        <FeedbackBanner feedback={feedback} onClose={clear} mb={0} />
        <Group gap="xs">
          <Text size="sm">{current.email}</Text>
          {current.disabled ? (
            <WholeBadge color="red" variant="light">
              Disabled
            </WholeBadge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          Created {when(current.createdAt)} · last sign-in {when(current.lastSignInAt)} · {current.alertCount}{' '}
          alert(s), {current.channelCount} channel(s)
        </Text>
        <Select
          label="Role"
          data={levels}
          value={accountLevel(current.roles)}
          allowDeselect={false}
          disabled={!isSuperAdmin || setLevel.isPending}
          description={isSuperAdmin ? undefined : 'Only a super admin can grant or revoke admin rights.'}
          onChange={(value) => value && void changeLevel(value as AccountLevel)}
        />
        <Group gap="sm" wrap="wrap">
          <Button variant="light" loading={setDisabled.isPending} onClick={() => void toggleDisabled()}>
            {current.disabled ? 'Enable account' : 'Disable account'}
          </Button>
          <Button variant="light" loading={issueReset.isPending} onClick={() => void issue()}>
            Issue password reset link
          </Button>
          <Button
            color="red"
            variant="light"
            loading={remove.isPending}
            onClick={() => setConfirmDelete(true)}
          >
            Delete account
          </Button>
        </Group>
        {resetLink ? (
          <IssuedLink label="Password reset link" url={resetLink.url} expiresAt={resetLink.expiresAt} />
        ) : null}
        <Text fw={600}>Alerts</Text>
        {detail.isPending ? <LoadingState label="Loading the account…" /> : null}
        {detail.error ? (
          <ErrorState message={errorMessage(detail.error, accountMessages.loadUsersFailed)} />
        ) : null}
        {detail.data && detail.data.alerts.length === 0 ? <Text c="dimmed">No alerts.</Text> : null}
        {detail.data && detail.data.alerts.length > 0 ? (
          <List spacing={4}>
            {detail.data.alerts.map((alert) => (
              <List.Item key={alert.id}>
                {alert.title ?? alert.partyName ?? alert.templateName} — {alert.status}
              </List.Item>
            ))}
          </List>
        ) : null}
      </Stack>
      <ConfirmModal
        opened={confirmDelete}
        title="Delete account"
        message={accountMessages.deleteConfirm(name, current.alertCount, current.channelCount)}
        confirmLabel="Delete account"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void removeUser()}
      />
    </Modal>
  );
}
