import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authMessages, changePasswordInput, settingsConfirmationMs, settingsMessages } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { SectionCard } from './section-card.tsx';

const blank = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Password change, saved on the server (auth.changePassword); other sessions are signed out there. */
export function SecuritySection() {
  const api = useApi();
  const change = useMutation(api.account.changePassword());
  const { feedback: confirmation, show: confirm } = useFeedback({ lastsMs: settingsConfirmationMs });
  const [mismatch, setMismatch] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: blank,
    validate: (values) => {
      const result = changePasswordInput.safeParse(values);
      const errors: Record<string, string> = {};
      if (!result.success) for (const i of result.error.issues) errors[String(i.path[0])] ??= i.message;
      return errors;
    },
  });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const { newPassword, confirmPassword } = form.getValues();
    // The spec's local check comes first: a new password, typed the same way twice.
    if (!newPassword || newPassword !== confirmPassword) {
      setMismatch(settingsMessages.newPasswordsMustMatch);
      return;
    }
    setMismatch(null);
    if (form.validate().hasErrors) return;
    try {
      const { currentPassword } = form.getValues();
      await change.mutateAsync({ currentPassword, newPassword });
      form.setValues(blank);
      confirm({ tone: 'success', message: settingsMessages.passwordChanged });
    } catch {
      // Shown through change.error.
    }
  }

  return (
    <SectionCard
      id="settings-security"
      title="Security"
      description="Change your password. Multi-factor authentication is coming soon."
      confirmation={confirmation}
      error={mismatch ?? (change.error ? errorMessage(change.error, settingsMessages.saveFailed) : null)}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <Group grow align="flex-start">
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              {...form.getInputProps('newPassword')}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              {...form.getInputProps('confirmPassword')}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {authMessages.passwordHint}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Update password
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
