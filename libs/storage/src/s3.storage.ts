import type { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import { Client, type BucketItem, type ClientOptions } from 'minio';
import type { AppConfig } from '@plink/config';
import {
  assertContentType,
  assertSafeKey,
  assertSafePrefix,
  buildPublicUrl,
  isSafeKey,
  Storage,
  type ListedObject,
  type StoredObject,
} from './storage.port';

export type S3StorageOptions = NonNullable<AppConfig['s3']>;

const MISSING_OBJECT = new Set(['NoSuchKey', 'NotFound']);

/**
 * Stores uploads in an S3-compatible bucket (MinIO, AWS S3, …) through the `minio` client.
 * The bucket is created in the configured region on first use when it does not exist.
 */
export class S3Storage extends Storage {
  readonly client: Client;
  readonly bucket: string;
  private readonly region: string;
  private readonly publicBase?: string;
  private bucketReady?: Promise<void>;

  constructor(options: S3StorageOptions, client?: Client) {
    super();
    this.bucket = options.bucket;
    this.region = options.region;
    this.publicBase = options.publicUrl;
    this.client = client ?? new Client(clientOptions(options));
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    assertContentType(contentType);
    if (!Buffer.isBuffer(body)) throw new TypeError('Storage.put: body must be a Buffer');
    await this.ensureBucket();
    await this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType });
  }

  async putStream(key: string, body: NodeJS.ReadableStream, contentType: string): Promise<void> {
    assertSafeKey(key);
    assertContentType(contentType);
    // Size unknown: the client uploads it in parts as it comes (multipart), each part in memory once.
    await this.ensureBucket();
    await this.client.putObject(this.bucket, key, body as Readable, undefined, { 'Content-Type': contentType });
  }

  async get(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    await this.ensureBucket();
    try {
      const body = await this.client.getObject(this.bucket, key);
      // minio resolves getObject with the HTTP response itself: reading type and length from its
      // headers keeps them consistent with the bytes even when the object is replaced meanwhile.
      const headers = (body as { headers?: IncomingHttpHeaders }).headers;
      const length = Number(headers?.['content-length']);
      if (headers && Number.isFinite(length)) {
        return { body, contentType: headers['content-type'] || 'application/octet-stream', size: length };
      }
      const stat = await this.client.statObject(this.bucket, key);
      return { body, contentType: contentTypeOf(stat.metaData), size: stat.size };
    } catch (error) {
      if (this.isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    await this.ensureBucket();
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (error) {
      if (this.isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.ensureBucket();
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      if (!this.isMissing(error)) throw error;
    }
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (const key of keys) assertSafeKey(key);
    const unique = [...new Set(keys)];
    if (unique.length === 0) return;
    await this.ensureBucket();
    // minio batches by 1000 and reports per-key failures in the result instead of throwing.
    const results = await this.client.removeObjects(this.bucket, unique);
    const failures = results.filter((r) => r?.Error && !MISSING_OBJECT.has(r.Error.Code ?? ''));
    if (failures.length > 0) {
      const detail = failures
        .slice(0, 5)
        .map((r) => `${r?.Error?.Key}: ${r?.Error?.Code} ${r?.Error?.Message ?? ''}`.trim())
        .join('; ');
      throw new Error(`S3 deleteMany failed for ${failures.length} of ${unique.length} keys in bucket "${this.bucket}": ${detail}`);
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertSafePrefix(prefix);
    await this.ensureBucket();
    // ListObjectsV2, recursive (no delimiter); minio fetches the next page of 1000 only when this loop asks.
    const items = this.client.listObjectsV2(this.bucket, prefix, true);
    try {
      for await (const item of items as AsyncIterable<BucketItem>) {
        // Objects put into the bucket by other means may carry names no key may have: not ours to hand out.
        if (typeof item.name !== 'string' || !item.name.startsWith(prefix) || !isSafeKey(item.name)) continue;
        yield { key: item.name, size: item.size, lastModified: item.lastModified };
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'NoSuchBucket') {
        this.bucketReady = undefined; // deleted behind our back: nothing to list, recreate on next use
        return;
      }
      throw error;
    } finally {
      items.destroy();
    }
  }

  publicUrl(key: string): string {
    return buildPublicUrl(key, this.publicBase);
  }

  /** Creates the bucket once per instance (retried on the next call if that fails). */
  private ensureBucket(): Promise<void> {
    this.bucketReady ??= this.createBucketIfMissing().catch((error: unknown) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }

  private async createBucketIfMissing(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (error) {
      // Another replica created it in the meantime.
      const code = (error as { code?: string }).code;
      if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') {
        if (await this.client.bucketExists(this.bucket)) return;
      }
      throw new Error(`Could not create S3 bucket "${this.bucket}" in region ${this.region}: ${(error as Error).message}`, { cause: error });
    }
  }

  private isMissing(error: unknown): boolean {
    const code = (error as { code?: string } | undefined)?.code ?? '';
    if (code === 'NoSuchBucket') {
      this.bucketReady = undefined; // deleted behind our back: recreate on next use
      return true;
    }
    return MISSING_OBJECT.has(code);
  }
}

/**
 * Client options from the config. S3_ENDPOINT may also be given as a URL (`http://minio:9000`):
 * its scheme then decides TLS and its port is used unless S3_PORT is set.
 */
export function clientOptions(options: S3StorageOptions): ClientOptions {
  let { endPoint, port, useSSL } = options;
  if (/^https?:\/\//i.test(endPoint)) {
    const url = new URL(endPoint);
    endPoint = url.hostname.replace(/^\[(.*)\]$/, '$1');
    useSSL = url.protocol === 'https:';
    port ??= url.port ? Number(url.port) : undefined;
  }
  return {
    endPoint,
    port,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
  };
}

function contentTypeOf(metaData: Record<string, unknown>): string {
  for (const [name, value] of Object.entries(metaData ?? {})) {
    if (name.toLowerCase() === 'content-type' && typeof value === 'string' && value) return value;
  }
  return 'application/octet-stream';
}
