import { z } from 'zod';

/**
 * POST /api/upload-image?type=…: one image (at most 2 MB) in the multipart field `image`, answered with
 * `{ imageUrl }` or `{ message }`. The server decides what the file is from its bytes, re-encodes it and
 * sizes it for its use; the SPA may check size and type first to spare the round trip.
 */

/** What the image is for: main image, favicon, background, and `meta`, the sharing image (og:image). */
export const UPLOAD_IMAGE_TYPES = ['main', 'favicon', 'background', 'meta'] as const;
export type UploadImageType = (typeof UPLOAD_IMAGE_TYPES)[number];

/** The multipart field that carries the file. */
export const UPLOAD_IMAGE_FIELD = 'image';

/** At most 2 MB (2 × 1024 × 1024 bytes) per image. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** Decoding refuses images with more pixels than this (a small file can unpack to gigabytes). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Texts the server and the SPA share, word for word. The `…Title` ones are the SPA's toast titles. */
export const UploadMessages = {
  tooLarge: 'Image must be less than 2MB in size.',
  tooLargeTitle: 'File too large',
  notAnImage: 'Only image files are allowed.',
  notAnImageTitle: 'Invalid file type',
  missingImage: 'Please choose an image to upload.',
  oneImageOnly: 'Please send one image, in the form field "image".',
  invalidType: 'Image type must be one of: main, favicon, background, meta.',
  tooManyPixels: 'Image dimensions are too large (at most 40 megapixels).',
  /** An image in a format (or a variant of one) the server cannot read: compressed BMP, HEIC, …. */
  unsupportedImage: 'This image format is not supported. Please use a PNG, JPEG, GIF, WebP or BMP image.',
  verifyFirst: 'Please verify your email before uploading images.',
  tooManyUploads: 'Too many uploads. Please wait a minute and try again.',
  failedTitle: 'Upload failed',
  failed: 'An error occurred during upload.',
  uploadedTitle: 'Image uploaded',
} as const;

/** The query string of the call. */
export const uploadImageQuerySchema = z.object({
  type: z.enum(UPLOAD_IMAGE_TYPES, { error: UploadMessages.invalidType }),
});
export type UploadImageQuery = z.infer<typeof uploadImageQuerySchema>;

/** The answer (201). `imageUrl` goes into the page's imageUrl, backgroundImage, faviconUrl or metaImageUrl. */
export interface UploadImageResponse {
  imageUrl: string;
}

/**
 * What the server makes of each type (never enlarged, except favicon and meta, which are exact):
 * - main: fits in 1600 × 1600; JPEG, or PNG when it has transparency;
 * - background: fits in 2560 × 2560; JPEG, or PNG when it has transparency;
 * - favicon: exactly 64 × 64, the whole image kept (transparent margins), PNG;
 * - meta: exactly 1200 × 630 (the size social networks show), cropped to fill, JPEG.
 */
export const UPLOAD_IMAGE_SIZES: Record<UploadImageType, { width: number; height: number; exact: boolean }> = {
  main: { width: 1600, height: 1600, exact: false },
  background: { width: 2560, height: 2560, exact: false },
  favicon: { width: 64, height: 64, exact: true },
  meta: { width: 1200, height: 630, exact: true },
};

/** For `<input type="file" accept>`: what the server can read (ICO only for favicons). */
export const UPLOAD_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/avif,image/tiff,image/bmp';
export const UPLOAD_FAVICON_ACCEPT = `${UPLOAD_IMAGE_ACCEPT},image/x-icon,image/vnd.microsoft.icon,.ico`;

/**
 * The SPA's check before uploading (at most 2 MB, an image type): the message to show, or null when it may go.
 * The server checks again, from the bytes.
 */
export function checkImageFile(file: { size: number; type: string }): string | null {
  if (file.size > MAX_IMAGE_BYTES) return UploadMessages.tooLarge;
  if (file.type && !file.type.startsWith('image/')) return UploadMessages.notAnImage;
  if (file.type === 'image/svg+xml') return UploadMessages.notAnImage;
  return null;
}
