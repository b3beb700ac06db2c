import { Button, FileButton, Group, Image, Input, Stack, TextInput } from '@mantine/core';
import { UPLOAD_FAVICON_ACCEPT, UPLOAD_IMAGE_ACCEPT, type UploadImageType } from '@plink/contracts';
import { safeUrl } from '@plink/page-render';
import type { ReactNode } from 'react';
import { useUploadImage } from '../hooks/useUploadImage';

interface ImageFieldProps {
  label: string;
  /** The recommended size (sharing image 1200 × 630, favicon 32 × 32 or 64 × 64) or what the image is for. */
  description?: string;
  type: UploadImageType;
  value: string;
  onChange: (url: string) => void;
  error?: ReactNode;
  onBlur?: () => void;
  /** More actions beside Upload (e.g. 'Use Main Image'). */
  actions?: ReactNode;
}

/**
 * An image of the page: upload a file (checked, re-encoded and stored by the server) or paste an
 * image URL; a thumbnail shows what is set, 'Remove' clears it.
 */
export function ImageField({ label, description, type, value, onChange, error, onBlur, actions }: ImageFieldProps) {
  const { upload, isUploading } = useUploadImage(type, onChange);
  const preview = safeUrl(value);
  return (
    <Input.Wrapper label={label} description={description} error={error}>
      <Stack gap="xs" mt={6}>
        {/* The buttons go onto a second row where they do not fit beside the thumbnail (a phone). */}
        <Group gap="sm" align="center">
          {preview && (
            <Image
              src={preview}
              alt={`${label} preview`}
              w={type === 'favicon' ? 40 : 72}
              h={40}
              fit={type === 'favicon' ? 'contain' : 'cover'}
              radius="sm"
              bd="1px solid var(--mantine-color-gray-3)"
            />
          )}
          <FileButton onChange={upload} accept={type === 'favicon' ? UPLOAD_FAVICON_ACCEPT : UPLOAD_IMAGE_ACCEPT}>
            {(props) => (
              <Button {...props} variant="light" size="xs" loading={isUploading} aria-label={`Upload ${label}`}>
                Upload
              </Button>
            )}
          </FileButton>
          {actions}
          {value && (
            <Button variant="subtle" color="red" size="xs" onClick={() => onChange('')} aria-label={`Remove ${label}`}>
              Remove
            </Button>
          )}
        </Group>
        <TextInput
          aria-label={`${label} URL`}
          placeholder="https://… or upload a file"
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          onBlur={onBlur}
          error={!!error}
        />
      </Stack>
    </Input.Wrapper>
  );
}
