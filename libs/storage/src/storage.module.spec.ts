import { Test } from '@nestjs/testing';
import { ConfigModule, loadConfig } from '@plink/config';
import { LocalStorage } from './local.storage';
import { S3Storage } from './s3.storage';
import { createStorage, StorageModule } from './storage.module';
import { assertSafeKey, Storage } from './storage.port';

const baseEnv = { DATABASE_URL: 'postgres://localhost/plink', UPLOADS_DIR: '/tmp/plink-uploads-never-written' };
const s3Env = {
  ...baseEnv,
  S3_ENDPOINT: 'minio.internal',
  S3_PORT: '9000',
  S3_USE_SSL: 'false',
  S3_ACCESS_KEY: 'key',
  S3_SECRET_KEY: 'secret',
  S3_BUCKET: 'uploads',
  S3_PUBLIC_URL: 'https://cdn.plink.test',
};

describe('createStorage', () => {
  it('uses the uploads folder without S3 configuration', () => {
    const storage = createStorage(loadConfig(baseEnv));
    expect(storage).toBeInstanceOf(LocalStorage);
    expect((storage as LocalStorage).root).toBe('/tmp/plink-uploads-never-written');
    expect(storage.publicUrl('a.png')).toBe('/uploads/a.png');
  });

  it('uses S3 when S3_ENDPOINT is set', () => {
    const storage = createStorage(loadConfig(s3Env));
    expect(storage).toBeInstanceOf(S3Storage);
    expect((storage as S3Storage).bucket).toBe('uploads');
    expect(storage.publicUrl('a.png')).toBe('https://cdn.plink.test/a.png');
  });
});

describe('StorageModule', () => {
  it('provides the Storage port from the app config', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(loadConfig(baseEnv)), StorageModule],
    }).compile();
    expect(moduleRef.get(Storage)).toBeInstanceOf(LocalStorage);
    await moduleRef.close();
  });
});

describe('assertSafeKey', () => {
  const cases = (keys: string[]) => keys.map((key) => [key.length > 40 ? `${key.slice(0, 8)}… (${key.length} characters)` : JSON.stringify(key), key]);

  it.each(cases(['a', 'logo.png', 'u-1/avatars/me_2.webp', 'A.B-C_d/e', 'k'.repeat(200), '.hidden', 'a.b.c']))('accepts %s', (_, key) => {
    expect(() => assertSafeKey(key)).not.toThrow();
  });

  it.each(cases(['', '../x', '/etc/passwd', 'a/../../b', 'k'.repeat(201), '..', 'a/..', 'a..b', './a', 'a//b', 'a/', 'a\\b', 'a b', 'ä', 'a?b', 'a#b', 'a%2f']))(
    'rejects %s',
    (_, key) => {
      expect(() => assertSafeKey(key)).toThrow(/^Unsafe storage key/);
    },
  );

  it('rejects non-strings', () => {
    expect(() => assertSafeKey(undefined)).toThrow(/must be a string/);
    expect(() => assertSafeKey(42)).toThrow(/must be a string/);
  });
});
