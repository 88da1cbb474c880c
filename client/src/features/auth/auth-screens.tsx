import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { LoginForm } from './login-form.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from './password-forms.tsx';
import { RegisterForm } from './register-form.tsx';

/** /login: `redirectTo` is where the visitor was heading (already checked to stay on this site). */
export function LoginScreen({ redirectTo }: { redirectTo: string }) {
  return (
    <AuthLayout title="Sign in" subtitle="Watch resort and party availability and get told when it opens.">
      <NavigationFeedback />
      <LoginForm redirectTo={redirectTo} />
    </AuthLayout>
  );
}

/** /register; `invitation` is the token of an invitation link (`#invitation=…`). */
export function RegisterScreen({ invitation }: { invitation: string | null }) {
  return (
    <AuthLayout title="Create your account" subtitle="Set up alerts for the resorts and parties you watch.">
      <RegisterForm invitation={invitation} />
    </AuthLayout>
  );
}

export function ForgotPasswordScreen() {
  return (
    <AuthLayout title="Forgot password" subtitle="We e-mail you a link to set a new password.">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}

/** /reset-password; `token` is the link's token (`#token=…`). */
export function ResetPasswordScreen({ token }: { token: string | null }) {
  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your account.">
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}

/** Where a signed-in user lands on a page their roles do not open. */
export function UnauthorizedScreen() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" maw={480}>
        <Stack>
          <Title order={2}>Access Restricted</Title>
          <Text>
            You do not have permission to view this page. If you need access, contact an administrator.
          </Text>
          <Button.Group>
            <ButtonLink to="/" variant="light">
              Back to home
            </ButtonLink>
          </Button.Group>
        </Stack>
      </Paper>
    </Center>
  );
}
