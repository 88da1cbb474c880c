import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { accountMessages, deleteOwnAccountInput } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useSessionContext } from '@/session/use-session.ts';
import { SectionCard } from './section-card.tsx';

const exportFailed = 'Unable to export your data right now.';
const deleteFailed = 'Unable to delete your account right now.';

/** Hands a JSON document to the browser as a download. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  // The browser has started the download by the time the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Self-service: export everything the account holds, or delete the account after the password. */
export function AccountDataSection() {
  const api = useApi();
  const { manager } = useSessionContext();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const remove = useMutation(api.account.deleteAccount());

  const exportData = async () => {
    setError(null);
    setExporting(true);
    try {
      const data = await api.account.exportData();
      download(`resort-alerts-export-${data.exportedAt.slice(0, 10)}.json`, data);
    } catch (e) {
      setError(errorMessage(e, exportFailed));
    } finally {
      setExporting(false);
    }
  };

  const deleteAccount = async () => {
    const parsed = deleteOwnAccountInput.safeParse({ password });
    if (!parsed.success) {
      setPasswordError(parsed.error.issues[0]?.message ?? deleteFailed);
      return;
    }
    setPasswordError(null);
    try {
      await remove.mutateAsync(parsed.data);
    } catch (e) {
      setPasswordError(errorMessage(e, deleteFailed));
      return;
    }
    await manager.signOut();
    await navigate({
      to: '/login',
      state: { flash: { tone: 'success', message: accountMessages.ownAccountDeleted } },
    });
  };

  const close = () => {
    setConfirming(false);
    setPassword('');
    setPasswordError(null);
  };

  return (
    <SectionCard
      id="settings-account-data"
      title="Your data"
      description="Download everything your account holds as JSON, or delete the account with its data."
      error={error}
    >
      <Group gap="sm" wrap="wrap">
        <Button variant="light" loading={exporting} onClick={() => void exportData()}>
          Export my data
        </Button>
        <Button variant="light" color="red" onClick={() => setConfirming(true)}>
          Delete my account
        </Button>
      </Group>
      <Modal opened={confirming} onClose={close} title="Delete your account" centered>
        <Stack>
          <Text>{accountMessages.deleteOwnConfirm}</Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            error={passwordError}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => void deleteAccount()}>
              Delete my account
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
