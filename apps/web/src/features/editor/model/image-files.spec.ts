import { checkInlineImage, checkUploadFile, readAsDataUrl } from './image-files';

const MB = 1024 * 1024;

describe('image files in the editor', () => {
  it('refuses uploads over 2 MB and files that are not images, with the toasts the user sees', () => {
    expect(checkUploadFile({ size: 2 * MB, type: 'image/png' })).toBeNull();
    expect(checkUploadFile({ size: 2 * MB + 1, type: 'image/png' })).toEqual({
      title: 'File too large',
      description: 'Image must be less than 2MB in size.',
    });
    expect(checkUploadFile({ size: 10, type: 'application/pdf' })).toEqual({
      title: 'Invalid file type',
      description: 'Only image files are allowed.',
    });
    expect(checkUploadFile({ size: 10, type: 'image/svg+xml' })?.title).toBe('Invalid file type');
  });

  it('embeds only png, gif, jpeg, bmp and ico in the rich text', () => {
    for (const type of ['image/png', 'image/gif', 'image/jpeg', 'image/bmp', 'image/x-icon']) expect(checkInlineImage({ size: 10, type })).toBeNull();
    expect(checkInlineImage({ size: 10, type: 'image/webp' })?.title).toBe('Invalid file type');
    expect(checkInlineImage({ size: 3 * MB, type: 'image/png' })?.title).toBe('File too large');
  });

  it('reads a file as a data URL, writing icons as image/x-icon', async () => {
    const icon = new Blob([new Uint8Array([0, 0, 1, 0])], { type: 'image/vnd.microsoft.icon' });
    expect(await readAsDataUrl(icon)).toBe('data:image/x-icon;base64,AAABAA==');
  });
});
