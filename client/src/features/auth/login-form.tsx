import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { authMessages, type LoginInput, loginInput } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useSessionContext } from '@/session/use-session.ts';

export function LoginForm({ redirectTo }: { redirectTo: string }) {
  const api = useApi();
  const { manager } = useSessionContext();
  const navigate = useNavigate();
  const login = useMutation(api.auth.login());
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginInput, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      manager.signIn(await login.mutateAsync(values));
      await navigate({ href: redirectTo, replace: true });
    } catch {
      // The mutation's error is shown below.
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {login.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(login.error, authMessages.loginFailed)}
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
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign in
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/forgot-password">
            Forgot password?
          </Anchor>
        </Text>
        <Text size="sm" ta="center">
          No account yet?{' '}
          <Anchor component={Link} to="/register">
            Create one
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
