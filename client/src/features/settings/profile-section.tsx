import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type Profile, settingsConfirmationMs, settingsMessages, updateProfileInput } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { useSessionContext } from '@/session/use-session.ts';
import { SectionCard } from './section-card.tsx';

const profileForm = z.object({
  name: updateProfileInput.shape.name.unwrap(),
  displayName: z.string().trim().max(200),
  headline: z.string().trim().max(300),
  bio: z.string().trim().max(5000),
});
type ProfileFormValues = z.input<typeof profileForm>;

/** Profile details, saved on the server (users.updateProfile). */
export function ProfileSection({ profile }: { profile: Profile }) {
  const api = useApi();
  const { store } = useSessionContext();
  const save = useMutation(api.account.updateProfile());
  const { feedback: confirmation, show: confirm } = useFeedback({ lastsMs: settingsConfirmationMs });
  const form = useForm<ProfileFormValues>({
    mode: 'controlled',
    initialValues: {
      name: profile.name ?? '',
      displayName: profile.displayName ?? '',
      headline: profile.headline ?? '',
      bio: profile.bio ?? '',
    },
    validate: schemaResolver(profileForm, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      store.updateUser({ id: saved.id, name: saved.name, email: saved.email, roles: saved.roles });
      form.resetDirty();
      confirm({ tone: 'success', message: settingsMessages.profileSaved });
    } catch {
      // Shown through save.error.
    }
  });

  return (
    <SectionCard
      id="settings-profile"
      title="Profile details"
      description="How you appear across Resort Alerts."
      confirmation={confirmation}
      error={save.error ? errorMessage(save.error, settingsMessages.saveFailed) : null}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label="Full name" required autoComplete="name" {...form.getInputProps('name')} />
            <TextInput label="Display name" autoComplete="nickname" {...form.getInputProps('displayName')} />
          </Group>
          <TextInput
            label="Headline"
            placeholder="Planning our next family trip"
            {...form.getInputProps('headline')}
          />
          <Textarea label="Bio" autosize minRows={3} {...form.getInputProps('bio')} />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
