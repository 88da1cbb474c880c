import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '@/components/links.tsx';

export const Route = createFileRoute('/unauthorized')({
  component: () => (
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
  ),
});
