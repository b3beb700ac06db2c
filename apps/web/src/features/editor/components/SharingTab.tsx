import { Button, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { PAGE_LIMITS } from '@plink/contracts';
import { toast } from '../../../lib/toast';
import type { PageForm } from '../hooks/usePageForm';
import { SEO_DESCRIPTION_RANGE, metaDescriptionHint } from '../model/sharing';
import { ImageField } from './ImageField';
import { imageFieldProps } from './image-field-props';
import { EmbedOnYourSite } from '../embed/EmbedOnYourSite';

/**
 * The Sharing tab (the page's metadata): what search engines and social networks show —
 * meta title and description, the sharing image and the favicon.
 */
export function SharingTab({ form, savedSlug }: { form: PageForm; savedSlug: string | null }) {
  const description = form.values.metaDescription;
  const hint = metaDescriptionHint(description);
  const metaImage = imageFieldProps(form, 'metaImageUrl');

  const useMainImage = () => {
    const main = form.values.imageUrl.trim();
    if (!main) {
      toast({ title: 'No main image', description: 'Please upload a main image first or enter a URL manually.', variant: 'destructive' });
      return;
    }
    metaImage.onChange(main);
  };

  return (
    <Stack gap="md">
      <TextInput
        label="Meta Title"
        description="The title in search results and shared links; the page title when empty."
        placeholder={form.values.title || 'Your page title'}
        maxLength={PAGE_LIMITS.titleMax}
        {...form.getInputProps('metaTitle')}
      />
      <Textarea
        label="Meta Description"
        description={`Recommended: ${SEO_DESCRIPTION_RANGE.min}-${SEO_DESCRIPTION_RANGE.max} characters.`}
        placeholder="A sentence or two that makes people click."
        autosize
        minRows={3}
        maxLength={PAGE_LIMITS.metaDescription}
        {...form.getInputProps('metaDescription')}
      />
      <Text size="xs" c={hint.tone === 'good' ? 'green.7' : 'dimmed'} mt={-10} data-testid="meta-description-counter">
        {description.length} characters{hint.text ? ` · ${hint.text}` : ''}
      </Text>
      <ImageField
        label="Sharing Image"
        description="Shown when the link is shared. Recommended 1200x630; uploads are cropped to that size."
        type="meta"
        {...metaImage}
        actions={
          <Button variant="default" size="xs" onClick={useMainImage}>
            Use Main Image
          </Button>
        }
      />
      <ImageField
        label="Favicon"
        description="The browser tab icon: 32x32 or 64x64 (uploads are made 64x64)."
        type="favicon"
        {...imageFieldProps(form, 'faviconUrl')}
      />
      <EmbedOnYourSite form={form} savedSlug={savedSlug} />
    </Stack>
  );
}
