import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

/** The part of @20minutes/s3rver (untyped) used here; it accepts the fixed credentials S3RVER / S3RVER. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

/**
 * One uploads store (the app's local folder, or S3 served by s3rver in this process): the settings that
 * point the app at it, and a look at the files it holds that does not go through the app's storage client.
 */
export interface UploadStore {
  name: string;
  kind: 'local' | 's3';
  /** Starts the store and answers the app's settings for it (UPLOADS_DIR, or the S3_* variables). */
  start(): Promise<Record<string, string>>;
  /** Every key the store holds under `prefix`. */
  keys(prefix: string): Promise<string[]>;
  /** Makes the stored object look `hours` old (the file time the store reports as its lastModified). */
  age(key: string, hours: number): Promise<void>;
  stop(): Promise<void>;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** The local folder store (UPLOADS_DIR) in a fresh temporary folder. */
export function localUploadStore(): UploadStore {
  let dir = '';
  return {
    name: 'local folder',
    kind: 'local',
    async start() {
      dir = await mkdtemp(join(tmpdir(), 'plink-uploads-'));
      return { UPLOADS_DIR: dir };
    },
    async keys(prefix) {
      // `~` marks the folder store's files still being written.
      return (await filesUnder(dir)).filter((key) => !key.includes('~') && key.startsWith(prefix));
    },
    async age(key, hours) {
      await utimes(join(dir, key), hoursAgo(hours), hoursAgo(hours));
    },
    async stop() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const S3_TEST_BUCKET = 'plink-uploads-test';
/** s3rver keeps each object as `{bucket}/{key}._S3rver_object`, beside its metadata files. */
const S3RVER_OBJECT = '._S3rver_object';

/** An S3-compatible server (s3rver) in this process, on a free port, with its files in a temporary folder. */
export function s3rverUploadStore(): UploadStore {
  let dir = '';
  let server: S3rverServer | undefined;
  return {
    name: 'S3 (s3rver)',
    kind: 's3',
    async start() {
      dir = await mkdtemp(join(tmpdir(), 'plink-s3rver-'));
      const S3rver = require('@20minutes/s3rver') as new (options: { port: number; address: string; silent: boolean; directory: string }) => S3rverServer;
      server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
      const { port } = await server.run();
      return {
        S3_ENDPOINT: '127.0.0.1',
        S3_PORT: String(port),
        S3_USE_SSL: 'false',
        S3_ACCESS_KEY: 'S3RVER',
        S3_SECRET_KEY: 'S3RVER',
        S3_BUCKET: S3_TEST_BUCKET,
      };
    },
    async keys(prefix) {
      return (await filesUnder(join(dir, S3_TEST_BUCKET)))
        .filter((file) => file.endsWith(S3RVER_OBJECT))
        .map((file) => file.slice(0, -S3RVER_OBJECT.length))
        .filter((key) => key.startsWith(prefix));
    },
    async age(key, hours) {
      await utimes(join(dir, S3_TEST_BUCKET, `${key}${S3RVER_OBJECT}`), hoursAgo(hours), hoursAgo(hours));
    },
    async stop() {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
