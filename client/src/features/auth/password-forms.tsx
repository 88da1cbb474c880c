import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { accountMessages, authMessages, forgotPasswordInput, newPasswordSchema } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { LoadingState } from '@/components/states.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

const resetFailed = 'Unable to reset the password right now.';

function BackToSignIn() {
  return (
    <Text size="sm" ta="center">
      <Anchor component={Link} to="/login">
        Back to sign in
      </Anchor>
    </Text>
  );
}

/** What the page ends with instead of its form: an answer, a refusal or a notice, and the way back. */
function Outcome({ tone, message }: { tone: 'success' | 'error' | 'info'; message: string }) {
  const color = { success: 'teal', error: 'red', info: 'blue' }[tone];
  return (
    <Stack>
      <Alert color={color} variant="light" role={tone === 'error' ? 'alert' : 'status'}>
        {message}
      </Alert>
      <BackToSignIn />
    </Stack>
  );
}

/**
 * /forgot-password: asks for the address and shows the server's answer, the same whether or not an
 * account exists. Without e-mail on the server it says to ask an administrator instead.
 */
export function ForgotPasswordForm() {
  const api = useApi();
  const options = useQuery(api.auth.options());
  const forgot = useMutation(api.auth.forgotPassword());
  const form = useForm<{ email: string }>({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: schemaResolver(forgotPasswordInput, { sync: true }),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await forgot.mutateAsync(values);
    } catch {
      // The mutation's error is shown below.
    }
  });

  if (options.isPending) return <LoadingState label="Loading…" />;
  if (options.data && !options.data.passwordResetByEmail) {
    return <Outcome tone="info" message={accountMessages.resetByEmailUnavailable} />;
  }
  if (forgot.data) return <Outcome tone="success" message={forgot.data.message} />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {forgot.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(forgot.error, resetFailed)}
          </Alert>
        ) : null}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={forgot.isPending} fullWidth>
          Send reset link
        </Button>
        <BackToSignIn />
      </Stack>
    </form>
  );
}

export const resetFormSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: authMessages.passwordsDoNotMatch,
  });

/** /reset-password#token=…: sets a new password with the e-mailed (or admin-issued) link's token. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const api = useApi();
  const reset = useMutation(api.auth.resetPassword());
  const form = useForm<z.input<typeof resetFormSchema>>({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(resetFormSchema, { sync: true }),
  });
  const submit = form.onSubmit(async ({ password }) => {
    if (!token) return;
    try {
      await reset.mutateAsync({ token, password });
    } catch {
      // The mutation's error is shown below.
    }
  });

  if (!token) return <Outcome tone="error" message={accountMessages.resetLinkInvalid} />;
  if (reset.isSuccess) {
    return (
      <Stack>
        <Alert color="teal" variant="light" role="status">
          {accountMessages.passwordReset}
        </Alert>
        <Button component={Link} to="/login" fullWidth>
          Sign in
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {reset.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(reset.error, resetFailed)}
          </Alert>
        ) : null}
        <NewPasswordFields
          form={form}
          label={{ password: 'New password', confirm: 'Confirm new password' }}
        />
        <Button type="submit" loading={reset.isPending} fullWidth>
          Set new password
        </Button>
        <BackToSignIn />
      </Stack>
    </form>
  );
}
