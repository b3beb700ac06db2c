import { Stack, Switch, TextInput } from '@mantine/core';
import { displayPageUrl, useSlugAvailability } from '../../pages';
import type { PageForm } from '../hooks/usePageForm';
import { ImageField } from './ImageField';
import { imageFieldProps } from './image-field-props';
import { RichTextField } from './RichTextField';

interface ContentTabProps {
  form: PageForm;
  /** The page being edited (its saved address is its own); none while creating. */
  savedPage?: { id: number; savedSlug: string };
}

export function ContentTab({ form, savedPage }: ContentTabProps) {
  const subtext = form.getInputProps('subtext');
  const slugInput = form.getInputProps('slug');
  // Taken or free, said while typing; the save checks again (two creators may race for one address).
  const availability = useSlugAvailability(form.values.slug, savedPage);
  const address = displayPageUrl(form.values.slug.trim() || 'your-slug');
  return (
    <Stack gap="md">
      <TextInput
        label="URL Slug"
        placeholder="my-free-guide"
        withAsterisk
        {...slugInput}
        description={availability?.available ? `Your page's address: ${address} — available` : `Your page's address: ${address}`}
        error={slugInput.error ?? (availability && !availability.available ? availability.message : undefined)}
      />
      <TextInput label="Title" placeholder="Get the free guide" {...form.getInputProps('title')} />
      <RichTextField
        label="Subtext"
        value={subtext.value as string}
        onChange={subtext.onChange}
        error={subtext.error as string | undefined}
      />
      <TextInput label="Author Name" placeholder="Shown under the title" {...form.getInputProps('authorName')} />
      <Switch
        label="Show the author"
        description="The author name, or your username when it is empty."
        {...form.getInputProps('showUsername', { type: 'checkbox' })}
      />
      <TextInput label="Button Text" placeholder="Submit" {...form.getInputProps('buttonText')} />
      <ImageField
        label="Main Image"
        description="Shown at the top of the card, 260 px high; large images are scaled to 1600 px wide."
        type="main"
        {...imageFieldProps(form, 'imageUrl')}
      />
      <TextInput
        label="File URL"
        description="The link each new lead receives by e-mail."
        placeholder="https://example.com/guide.pdf"
        {...form.getInputProps('fileUrl')}
      />
      <TextInput
        label="Redirect URL"
        description="Where visitors go 3 seconds after signing up (optional)."
        placeholder="https://example.com/welcome"
        {...form.getInputProps('redirectUrl')}
      />
    </Stack>
  );
}
