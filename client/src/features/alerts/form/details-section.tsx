import { SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import type { AlertForm } from './alert-form-model.ts';

/** Tags, title and party name: all optional, each non-empty when given. */
export function DetailsSection({ form }: { form: AlertForm }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Title" placeholder="Summer at the Poly" {...form.getInputProps('title')} />
        <TextInput label="Party name" placeholder="Garcia family" {...form.getInputProps('partyName')} />
      </SimpleGrid>
      <TagsInput
        label="Tags"
        placeholder="Type a tag and press Enter"
        clearable
        {...form.getInputProps('tags')}
      />
    </Stack>
  );
}
