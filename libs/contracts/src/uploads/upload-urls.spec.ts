import { UploadUrls, newUploadKey, uploadKeyOwner } from './upload-urls';

// The two storage ports' public URLs: the local folder's is served by the app at /uploads/, and S3's at S3_PUBLIC_URL
// (the storage lib's tests hold LocalStorage and S3Storage to these).
const config = { appOrigin: 'https://plink.example' };
const local = new UploadUrls({ publicUrl: (key) => `/uploads/${key}` }, config);
const s3 = new UploadUrls({ publicUrl: (key) => `https://cdn.plink.example/uploads/${key}` }, config);

describe('upload keys and URLs', () => {
  it('makes unguessable keys under the user’s own prefix', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newUploadKey(42, 'main', 'jpg')));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^u42\/main-[A-Za-z0-9_-]{22}\.jpg$/);
      expect(uploadKeyOwner(key)).toBe(42);
    }
    expect(newUploadKey(7, 'favicon', 'png')).toMatch(/^u7\/favicon-[A-Za-z0-9_-]{22}\.png$/);
    // Animations keep their format: their keys belong to their owner too (so deletes and sweeps find them).
    for (const ext of ['gif', 'webp'] as const) expect(uploadKeyOwner(newUploadKey(9, 'background', ext))).toBe(9);
    expect(uploadKeyOwner('u9/background-0123456789012345678901.svg')).toBeNull();
  });

  it('finds a user’s own uploads behind the URLs a page may hold', () => {
    const key = newUploadKey(42, 'meta', 'jpg');
    expect(local.urlOf(key)).toBe(`/uploads/${key}`);
    expect(local.ownKeyOf(`/uploads/${key}`, 42)).toBe(key);
    expect(local.ownKeyOf(`https://plink.example/uploads/${key}`, 42)).toBe(key);
    expect(s3.urlOf(key)).toBe(`https://cdn.plink.example/uploads/${key}`);
    expect(s3.ownKeyOf(`https://cdn.plink.example/uploads/${key}`, 42)).toBe(key);
    expect(s3.ownKeyOf(`/uploads/${key}`, 42)).toBe(key);
  });

  it('never gives up another user’s upload, a link elsewhere or a file that is not an upload', () => {
    const key = newUploadKey(42, 'main', 'png');
    for (const url of [
      `/uploads/${key}`, // someone else's, as seen from user 7
      `https://elsewhere.example/uploads/${key}`,
      '/uploads/u7/../u42/main-0123456789012345678901.jpg',
      '/uploads/u7/notes.txt',
      '/uploads/u7/main-short.jpg',
      'https://images.example/cat.jpg',
      '',
      null,
      undefined,
    ]) {
      expect(local.ownKeyOf(url, 7)).toBeNull();
    }
  });

  it('lists each own upload of a page once', () => {
    const main = newUploadKey(3, 'main', 'jpg');
    const favicon = newUploadKey(3, 'favicon', 'png');
    const page = { imageUrl: `/uploads/${main}`, metaImageUrl: `/uploads/${main}`, faviconUrl: `/uploads/${favicon}`, backgroundImage: 'https://x.example/bg.jpg' };
    expect(local.ownKeysOf(page, 3).sort()).toEqual([favicon, main].sort());
    expect(local.urlsOf(main)).toEqual([`/uploads/${main}`, `https://plink.example/uploads/${main}`]);
  });
});
