import { Button, Group, Stack, Switch } from '@mantine/core';
import { settingsConfirmationMs, settingsMessages } from '@resort/shared';
import { useState } from 'react';
import { SectionCard } from './section-card.tsx';
import { useTimedMessage } from './use-timed-message.ts';

/** Defaults of SPEC.md §9: push on, email on, SMS off. */
export const defaultPreferences = { push: true, email: true, sms: false };

/** Notification preferences: local only (SPEC.md §2), confirmed for 4 seconds. */
export function PreferencesSection() {
  const [prefs, setPrefs] = useState(defaultPreferences);
  const [confirmation, confirm] = useTimedMessage(settingsConfirmationMs);
  const toggle = (key: keyof typeof prefs) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setPrefs((p) => ({ ...p, [key]: event.currentTarget.checked }));

  return (
    <SectionCard
      id="settings-preferences"
      title="Notification preferences"
      description="How you would like to hear from us. These preferences are kept in this browser tab."
      confirmation={confirmation}
    >
      <Stack gap="sm">
        <Switch label="Push notifications" checked={prefs.push} onChange={toggle('push')} />
        <Switch label="Email notifications" checked={prefs.email} onChange={toggle('email')} />
        <Switch label="SMS notifications" checked={prefs.sms} onChange={toggle('sms')} />
        <Group justify="flex-end">
          <Button onClick={() => confirm(settingsMessages.preferencesSaved)}>Save preferences</Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
