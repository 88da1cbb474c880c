import { Button, Group, NumberInput, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  type CreateProxy,
  createProxyInput,
  PROXY_DEFAULT_PORT,
  PROXY_DEFAULT_PROTOCOL,
  type ProxyProtocol,
  proxyProtocols,
  type WebProxy,
} from '@resort/shared';

export interface ProxyFormValues {
  host: string;
  port: number | string;
  protocol: ProxyProtocol;
  username: string;
  password: string;
  isActive: boolean;
}

export function proxyFormValues(proxy?: WebProxy): ProxyFormValues {
  return {
    host: proxy?.host ?? '',
    port: proxy?.port ?? PROXY_DEFAULT_PORT,
    protocol: proxy?.protocol ?? PROXY_DEFAULT_PROTOCOL,
    username: proxy?.username ?? '',
    password: proxy?.password ?? '',
    isActive: proxy?.isActive ?? true,
  };
}

/**
 * Host, port, protocol, optional credentials and the active flag (docs/product.md, "Validation and messages"), validated
 * with the server's own create schema, so the form and the API answer the same words.
 */
export function ProxyForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: WebProxy;
  submitLabel: string;
  /** Resolves true when the proxy was saved, so the form can start over. */
  onSubmit: (values: CreateProxy) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const form = useForm<ProxyFormValues>({
    mode: 'controlled',
    initialValues: proxyFormValues(initial),
    validate: schemaResolver(createProxyInput, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    const saved = await onSubmit(createProxyInput.parse(values));
    if (saved && !initial) form.reset();
  });

  return (
    <form noValidate onSubmit={submit} aria-label={submitLabel}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput
            label="Host"
            placeholder="proxy.example.com"
            withAsterisk
            {...form.getInputProps('host')}
          />
          <NumberInput
            label="Port"
            min={1}
            max={65535}
            allowDecimal={false}
            {...form.getInputProps('port')}
          />
          <Select
            label="Protocol"
            data={[...proxyProtocols]}
            allowDeselect={false}
            {...form.getInputProps('protocol')}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label="Username"
            placeholder="Optional"
            autoComplete="off"
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label="Password"
            placeholder="Optional"
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
        </Group>
        <Switch label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={form.submitting}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
