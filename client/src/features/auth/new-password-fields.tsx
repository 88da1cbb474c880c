import { PasswordInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { authMessages } from '@resort/shared';

type Field = 'password' | 'confirmPassword';

/** A new password with its rule's hint, and its confirmation (registration and password reset). */
export function NewPasswordFields({
  form,
  label,
}: {
  form: { key: (field: Field) => string; getInputProps: (field: Field) => GetInputPropsReturnType };
  label: { password: string; confirm: string };
}) {
  return (
    <>
      <PasswordInput
        label={label.password}
        description={authMessages.passwordHint}
        autoComplete="new-password"
        required
        key={form.key('password')}
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label={label.confirm}
        autoComplete="new-password"
        required
        key={form.key('confirmPassword')}
        {...form.getInputProps('confirmPassword')}
      />
    </>
  );
}
