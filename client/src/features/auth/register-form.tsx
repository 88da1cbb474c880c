import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { authMessages, registerInput } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useSessionContext } from '@/session/use-session.ts';

/** The server's register schema plus the form-only rule that both passwords match. */
export const registerFormSchema = registerInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: authMessages.passwordsDoNotMatch,
  });
type RegisterFormValues = z.input<typeof registerFormSchema>;

export function RegisterForm() {
  const api = useApi();
  const { manager } = useSessionContext();
  const navigate = useNavigate();
  const register = useMutation(api.auth.register());
  const form = useForm<RegisterFormValues>({
    mode: 'controlled',
    initialValues: { name: '', email: '', password: '', confirmPassword: '' },
    validate: schemaResolver(registerFormSchema, { sync: true }),
  });

  const submit = form.onSubmit(async ({ name, email, password }) => {
    try {
      manager.signIn(await register.mutateAsync({ name, email, password }));
      await navigate({ to: '/', replace: true });
    } catch {
      // The mutation's error is shown below.
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
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
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          description={authMessages.passwordHint}
          autoComplete="new-password"
          required
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Confirm password"
          autoComplete="new-password"
          required
          key={form.key('confirmPassword')}
          {...form.getInputProps('confirmPassword')}
        />
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
