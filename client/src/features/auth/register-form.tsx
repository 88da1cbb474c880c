import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { accountLevelLabels, accountMessages, authMessages, registerInput } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useSessionContext } from '@/session/use-session.ts';
import { NewPasswordFields } from './new-password-fields.tsx';

/** The server's register schema plus the form-only rule that both passwords match. */
export const registerFormSchema = registerInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: authMessages.passwordsDoNotMatch,
  });
type RegisterFormValues = z.input<typeof registerFormSchema>;

const policyNotices = {
  open: null,
  'invite-only': accountMessages.signupInviteOnly,
  closed: accountMessages.signupClosed,
} as const;

/**
 * /register, or /register#invitation=… through an invitation link: the link's role is shown and an
 * address it is bound to is filled in. Without a link, a closed or invite-only policy is said up
 * front; the form stays, since the server decides (the first account of an empty instance always
 * registers).
 */
export function RegisterForm({ invitation = null }: { invitation?: string | null }) {
  const api = useApi();
  const { manager } = useSessionContext();
  const navigate = useNavigate();
  const register = useMutation(api.auth.register());
  const options = useQuery({ ...api.auth.options(), enabled: !invitation });
  // Looked up once: a query would look the link up again after it is used, and be refused.
  const lookup = useMutation(api.auth.invitation());
  const { mutate: lookUp } = lookup;
  useEffect(() => {
    if (invitation) lookUp({ token: invitation });
  }, [invitation, lookUp]);
  const form = useForm<RegisterFormValues>({
    mode: 'controlled',
    initialValues: { name: '', email: '', password: '', confirmPassword: '' },
    validate: schemaResolver(registerFormSchema, { sync: true }),
  });
  // The invitation's address fills the e-mail field once it is known (the form object changes each render).
  const formRef = useRef(form);
  formRef.current = form;
  const invitedEmail = lookup.data?.email ?? null;
  useEffect(() => {
    if (invitedEmail) formRef.current.setFieldValue('email', invitedEmail);
  }, [invitedEmail]);
  const notice = invitation ? null : policyNotices[options.data?.signupPolicy ?? 'open'];

  const submit = form.onSubmit(async ({ name, email, password }) => {
    try {
      manager.signIn(
        await register.mutateAsync({ name, email, password, ...(invitation ? { invitation } : {}) }),
      );
      await navigate({ to: '/', replace: true });
    } catch {
      // The mutation's error is shown below.
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {notice ? (
          <Alert color="blue" variant="light" role="status">
            {notice}
          </Alert>
        ) : null}
        {lookup.data ? (
          <Alert color="teal" variant="light" role="status">
            You are invited as {accountLevelLabels[lookup.data.role]}.
          </Alert>
        ) : null}
        {lookup.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(lookup.error, accountMessages.invitationInvalid)}
          </Alert>
        ) : null}
        {register.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(register.error, authMessages.registerFailed)}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          autoComplete="name"
          required
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          readOnly={Boolean(lookup.data?.email)}
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <NewPasswordFields form={form} label={{ password: 'Password', confirm: 'Confirm password' }} />
        <Button type="submit" loading={register.isPending} fullWidth>
          Create account
        </Button>
        <Text size="sm" ta="center">
          Already registered?{' '}
          <Anchor component={Link} to="/login">
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
