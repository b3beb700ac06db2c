/** One stored object, as read back: a stream of its bytes, its content type and its size in bytes. */
export interface StoredObject {
  body: NodeJS.ReadableStream;
  contentType: string;
  size: number;
}

/** One stored object, as listed: its key, its size in bytes and when it was last written. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * The storage port for uploads (images uploaded by creators, served at `/uploads/{key}`):
 * S3/MinIO in production, a local folder on a fresh machine.
 *
 * Every method validates its key with {@link assertSafeKey} before any I/O, so a key can never
 * name anything outside the adapter's folder or bucket.
 */
export abstract class Storage {
  /** Stores `body` under `key`, replacing any previous object. Readers never see half an object. */
  abstract put(key: string, body: Buffer, contentType: string): Promise<void>;

  /**
   * Stores what `body` streams under `key` (a file of unknown size, built as it is stored: an account export's
   * ZIP), replacing any previous object once the stream has ended; memory stays flat whatever its size. A stream
   * that fails stores nothing.
   */
  abstract putStream(key: string, body: NodeJS.ReadableStream, contentType: string): Promise<void>;

  /** The object under `key`, or null when there is none. The caller must consume or destroy `body`. */
  abstract get(key: string): Promise<StoredObject | null>;

  /** True when an object is stored under `key`. */
  abstract exists(key: string): Promise<boolean>;

  /** Removes the object under `key`; no error when there is none. */
  abstract delete(key: string): Promise<void>;

  /** Removes every listed object; missing ones are ignored. All keys are validated before anything is removed. */
  abstract deleteMany(keys: string[]): Promise<void>;

  /**
   * Every stored object whose key starts with `prefix` (a plain string prefix, as in S3: `u1/` lists the
   * folder `u1`, `u1/ma` its keys starting with `ma`; `''` lists everything), nested keys included, in no
   * promised order. Read lazily, page by page, so listing a large store keeps memory flat; objects written
   * or removed meanwhile may or may not show. Only keys that pass {@link assertSafeKey} are yielded, so each
   * can be handed back to the other methods. The prefix is checked by {@link assertSafePrefix} before any I/O.
   */
  abstract list(prefix: string): AsyncIterable<ListedObject>;

  /**
   * The URL a browser loads the object from: `/uploads/{key}` (served by the gateway through
   * {@link get}), or `${S3_PUBLIC_URL}/{key}` when the bucket is public behind that URL.
   */
  abstract publicUrl(key: string): string;
}

/** The longest key accepted. */
export const MAX_KEY_LENGTH = 200;

const KEY_CHARS = /^[A-Za-z0-9._\-/]+$/;

/** Thrown for a key that could escape the storage folder or is otherwise unusable. */
export class UnsafeStorageKeyError extends Error {
  constructor(key: unknown, reason: string) {
    const shown = typeof key === 'string' ? JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key) : String(key);
    super(`Unsafe storage key ${shown}: ${reason}`);
    this.name = 'UnsafeStorageKeyError';
  }
}

/**
 * Accepts 1–200 characters of `[A-Za-z0-9._-/]`, without `..`, without a leading slash and without
 * empty (`a//b`, trailing `/`) segments; throws {@link UnsafeStorageKeyError} otherwise.
 */
export function assertSafeKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw new UnsafeStorageKeyError(key, 'a key must be a string');
  if (key.length === 0) throw new UnsafeStorageKeyError(key, 'a key must not be empty');
  if (key.length > MAX_KEY_LENGTH) {
    throw new UnsafeStorageKeyError(key, `a key must be at most ${MAX_KEY_LENGTH} characters (got ${key.length})`);
  }
  if (!KEY_CHARS.test(key)) throw new UnsafeStorageKeyError(key, 'only A-Z, a-z, 0-9, ".", "_", "-" and "/" are allowed');
  if (key.includes('..')) throw new UnsafeStorageKeyError(key, '".." is not allowed');
  if (key.startsWith('/')) throw new UnsafeStorageKeyError(key, 'a key must not start with "/"');
  if (key.split('/').some((segment) => segment === '' || segment === '.')) {
    throw new UnsafeStorageKeyError(key, 'empty or "." path segments are not allowed');
  }
}

/** True when `key` passes {@link assertSafeKey}. */
export function isSafeKey(key: unknown): key is string {
  try {
    assertSafeKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * A prefix to list by: `''`, or the start of a safe key, which may end with `/` (`u1/`, `u1/main-`);
 * throws {@link UnsafeStorageKeyError} otherwise.
 */
export function assertSafePrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string') throw new UnsafeStorageKeyError(prefix, 'a prefix must be a string');
  if (prefix === '') return;
  assertSafeKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** Rejects a content type that is empty, too long or could break a header. */
export function assertContentType(contentType: unknown): asserts contentType is string {
  if (typeof contentType !== 'string' || !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(contentType)) {
    throw new Error(`Invalid content type ${JSON.stringify(contentType)}: expected a printable ASCII string of 1–255 characters`);
  }
}

/** The URL of `key` in the app, or under `publicBase` (without doubling its trailing slash). */
export function buildPublicUrl(key: string, publicBase?: string): string {
  assertSafeKey(key);
  return publicBase ? `${publicBase.replace(/\/+$/, '')}/${key}` : `/uploads/${key}`;
}

/** A content type guessed from the key's extension, for files stored without one. */
export function contentTypeFromKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return key.includes('.') ? (CONTENT_TYPES[ext] ?? 'application/octet-stream') : 'application/octet-stream';
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
};
