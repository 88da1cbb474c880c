import { Button, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { authMessages, type Profile, settingsConfirmationMs, settingsMessages } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { SectionCard } from './section-card.tsx';

const contactForm = z.object({
  primaryEmail: z.string().trim().min(1, settingsMessages.primaryEmailRequired),
  backupEmail: z.union([z.literal(''), z.string().trim().pipe(z.email(authMessages.emailInvalid))]),
  mobileNumber: z.string().trim().max(40),
});
type ContactFormValues = z.input<typeof contactForm>;

/**
 * Contact and recovery. The backup e-mail and mobile number are saved on the server; the primary
 * e-mail is the sign-in address, which the API cannot change, so it is checked here only.
 */
export function ContactSection({ profile }: { profile: Profile }) {
  const api = useApi();
  const save = useMutation(api.account.updateProfile());
  const { feedback: confirmation, show: confirm } = useFeedback({ lastsMs: settingsConfirmationMs });
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: {
      primaryEmail: profile.email,
      backupEmail: profile.backupEmail ?? '',
      mobileNumber: profile.mobileNumber ?? '',
    },
    validate: schemaResolver(contactForm, { sync: true }),
  });

  const submit = form.onSubmit(async ({ backupEmail, mobileNumber }) => {
    try {
      await save.mutateAsync({
        backupEmail: backupEmail.trim(),
        mobileNumber: mobileNumber.trim(),
      });
      form.resetDirty();
      confirm({ tone: 'success', message: settingsMessages.contactSaved });
    } catch {
      // Shown through save.error.
    }
  });

  return (
    <SectionCard
      id="settings-contact"
      title="Contact and recovery"
      description="Where we reach you, and how you get back in if you lose access."
      confirmation={confirmation}
      error={save.error ? errorMessage(save.error, settingsMessages.saveFailed) : null}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Primary email"
            description="Your sign-in address."
            type="email"
            required
            {...form.getInputProps('primaryEmail')}
          />
          <Group grow align="flex-start">
            <TextInput label="Backup email" type="email" {...form.getInputProps('backupEmail')} />
            <TextInput
              label="Mobile number"
              type="tel"
              autoComplete="tel"
              {...form.getInputProps('mobileNumber')}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save contact details
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
