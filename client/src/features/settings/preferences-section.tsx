import { Button, Group, Stack, Switch } from '@mantine/core';
import {
  type NotificationPreferences,
  settingsConfirmationMs,
  settingsMessages,
  watchlistMessages,
} from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { SectionCard } from './section-card.tsx';

/** Defaults (docs/product.md, "Limits and constants"): push on, email on, SMS off, health notices on (the server's too). */
export const defaultPreferences: NotificationPreferences = {
  push: true,
  email: true,
  sms: false,
  healthNotices: true,
};

/**
 * Notification preferences, stored per user on the server. The e-mail and SMS toggles decide
 * whether those channels are used by default on new alerts.
 */
export function PreferencesSection() {
  const api = useApi();
  const saved = useQuery(api.preferences.get());
  const save = useMutation(api.preferences.update());
  const [prefs, setPrefs] = useState<NotificationPreferences>(defaultPreferences);
  const { feedback: confirmation, show: confirm } = useFeedback({ lastsMs: settingsConfirmationMs });
  useEffect(() => {
    if (saved.data) setPrefs(saved.data);
  }, [saved.data]);

  const toggle = (key: keyof NotificationPreferences) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const checked = event.currentTarget.checked;
    setPrefs((p) => ({ ...p, [key]: checked }));
  };

  async function submit() {
    try {
      await save.mutateAsync(prefs);
      confirm({ tone: 'success', message: settingsMessages.preferencesSaved });
    } catch {
      // Shown through save.error.
    }
  }

  return (
    <SectionCard
      id="settings-preferences"
      title="Notification preferences"
      description="How you would like to hear from us. Email and SMS decide which of your channels new alerts use by default."
      confirmation={confirmation}
      error={save.error ? errorMessage(save.error, settingsMessages.saveFailed) : null}
    >
      {saved.isPending ? (
        <LoadingState label="Loading your preferences…" />
      ) : saved.isError ? (
        <ErrorState
          message={errorMessage(saved.error, watchlistMessages.preferencesLoadFailed)}
          onRetry={() => saved.refetch()}
        />
      ) : (
        <Stack gap="sm">
          <Switch label="Push notifications" checked={prefs.push} onChange={toggle('push')} />
          <Switch label="Email notifications" checked={prefs.email} onChange={toggle('email')} />
          <Switch label="SMS notifications" checked={prefs.sms} onChange={toggle('sms')} />
          <Switch
            label="Tell me when an alert cannot see availability, and when it works again"
            checked={prefs.healthNotices}
            onChange={toggle('healthNotices')}
          />
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={save.isPending}>
              Save preferences
            </Button>
          </Group>
        </Stack>
      )}
    </SectionCard>
  );
}
