import { UploadMessages, checkImageFile } from '@plink/contracts';

/** The toast for a file the editor will not upload or embed (over 2 MB, not an image), or null when it may go. */
export function checkUploadFile(file: { size: number; type: string }): { title: string; description: string } | null {
  const problem = checkImageFile(file);
  if (problem === UploadMessages.tooLarge) return { title: UploadMessages.tooLargeTitle, description: problem };
  if (problem) return { title: UploadMessages.notAnImageTitle, description: problem };
  return null;
}

/** Images the rich text may embed inline as data, the same list the server's sanitiser keeps. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/gif', 'image/jpeg', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon'] as const;

/** The toast for a file the rich text will not embed, or null when it may. */
export function checkInlineImage(file: { size: number; type: string }): { title: string; description: string } | null {
  const problem = checkUploadFile(file);
  if (problem) return problem;
  if (!(INLINE_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return { title: UploadMessages.notAnImageTitle, description: 'Images in the text must be PNG, GIF, JPEG, BMP or ICO files.' };
  }
  return null;
}

/** A file's bytes as a `data:` URL; `image/vnd.microsoft.icon` is written as `image/x-icon`, which the server keeps. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:image\/vnd\.microsoft\.icon;/, 'data:image/x-icon;'));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
