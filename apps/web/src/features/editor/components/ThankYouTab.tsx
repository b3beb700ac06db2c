import { Stack, Textarea, TextInput } from '@mantine/core';
import type { PageForm } from '../hooks/usePageForm';

export function ThankYouTab({ form }: { form: PageForm }) {
  return (
    <Stack gap="md">
      <TextInput label="Thank You Headline" placeholder="Thank you!" {...form.getInputProps('thankYouHeadline')} />
      <Textarea
        label="Thank You Subtext"
        placeholder="Check your email for your download link."
        autosize
        minRows={3}
        {...form.getInputProps('thankYouSubtext')}
      />
      <TextInput
        label="Thank You Button Text"
        description="The button shows only when both its text and URL are set."
        {...form.getInputProps('thankYouButtonText')}
      />
      <TextInput
        label="Thank You Button URL"
        placeholder="https://example.com/next-step"
        {...form.getInputProps('thankYouButtonUrl')}
      />
    </Stack>
  );
}
