import { Button, CopyButton, Group, Text, TextInput } from '@mantine/core';

/** A link to hand over (an invitation or a password reset), shown once with a copy button. */
export function IssuedLink({ label, url, expiresAt }: { label: string; url: string; expiresAt: string }) {
  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <TextInput label={label} value={url} readOnly style={{ flex: '1 1 16rem' }} />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button variant="light" onClick={copy}>
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        )}
      </CopyButton>
      <Text size="xs" c="dimmed" w="100%">
        Works once, until {new Date(expiresAt).toLocaleString()}.
      </Text>
    </Group>
  );
}
