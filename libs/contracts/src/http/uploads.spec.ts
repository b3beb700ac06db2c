import { JOBS, MAX_IMAGE_BYTES, UploadMessages, checkImageFile, jobsOfQueue, QueueName, uploadImageQuerySchema } from '../index';

describe('upload contracts', () => {
  it('accepts the four image types and names them when the type is wrong', () => {
    for (const type of ['main', 'favicon', 'background', 'meta']) expect(uploadImageQuerySchema.parse({ type })).toEqual({ type });
    for (const query of [{}, { type: 'avatar' }, { type: 'MAIN' }, { type: ['main', 'meta'] }]) {
      const result = uploadImageQuerySchema.safeParse(query);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(UploadMessages.invalidType);
    }
  });

  it('lets the SPA refuse a file that is too large or not an image before uploading', () => {
    expect(checkImageFile({ size: MAX_IMAGE_BYTES, type: 'image/png' })).toBeNull();
    expect(checkImageFile({ size: 1000, type: '' })).toBeNull(); // unknown type: the server decides from the bytes
    expect(checkImageFile({ size: MAX_IMAGE_BYTES + 1, type: 'image/jpeg' })).toBe('Image must be less than 2MB in size.');
    expect(checkImageFile({ size: 10, type: 'application/pdf' })).toBe('Only image files are allowed.');
    expect(checkImageFile({ size: 10, type: 'image/svg+xml' })).toBe('Only image files are allowed.');
  });

  it('binds the upload clean-up job to the uploads queue and accepts only upload keys', () => {
    expect(jobsOfQueue(QueueName.Uploads)).toEqual(['pages.delete-uploads', 'pages.sweep-uploads']);
    const schema = JOBS['pages.delete-uploads'].schema;
    expect(schema.safeParse({ v: 1, keys: ['u12/main-AbC_d-0123456789xyzABCD.jpg'] }).success).toBe(true);
    for (const keys of [[], ['../etc/passwd'], ['u12/../u13/main-AbC_d-0123456789.jpg'], ['other/file.png'], ['u1/main-short.jpg/x']]) {
      expect(schema.safeParse({ v: 1, keys }).success).toBe(false);
    }
  });
});
