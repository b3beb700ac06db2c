import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { assertContentType, assertSafeKey, buildPublicUrl, contentTypeFromKey, Storage, type StoredObject } from './storage.port';

interface Meta {
  contentType: string;
}

/**
 * Stores uploads as plain files under a root folder (created on demand): key `a/b.png` is the file
 * `{root}/a/b.png`, so the folder can be served or backed up as it is.
 *
 * - Each file is written to a temporary name and renamed into place, so a reader sees the old
 *   object or the new one, never half a file.
 * - Its content type is kept beside it in `{file}~meta.json` (falling back to the extension when the
 *   sidecar is missing). `~` can never occur in a key, so neither sidecars nor temporary files
 *   (`{file}~tmp-…`) can collide with a stored object.
 * - A key and a "folder" key prefix cannot coexist here (`a` and `a/b`): storing the second fails.
 */
export class LocalStorage extends Storage {
  readonly root: string;

  constructor(dir: string) {
    super();
    this.root = resolve(dir);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    assertContentType(contentType);
    if (!Buffer.isBuffer(body)) throw new TypeError('Storage.put: body must be a Buffer');
    await mkdir(dirname(file), { recursive: true });
    const meta: Meta = { contentType };
    await this.writeAtomically(`${file}~meta.json`, JSON.stringify(meta));
    await this.writeAtomically(file, body);
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.pathOf(key);
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      // The open handle pins this version of the file: a concurrent put (rename) or delete
      // does not disturb the bytes being streamed.
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await this.readContentType(key, file);
      return { body: handle.createReadStream(), contentType, size: stats.size };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    try {
      return (await lstat(file)).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) return;
    await unlinkIfPresent(file);
    await unlinkIfPresent(`${file}~meta.json`);
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (const key of keys) assertSafeKey(key);
    for (const key of new Set(keys)) await this.delete(key);
  }

  publicUrl(key: string): string {
    return buildPublicUrl(key);
  }

  /** The absolute file of a validated key, checked once more to lie inside the root. */
  private pathOf(key: string): string {
    assertSafeKey(key);
    const file = resolve(this.root, key);
    if (!file.startsWith(this.root + sep)) throw new Error(`Storage key ${JSON.stringify(key)} resolves outside ${this.root}`);
    return file;
  }

  private async readContentType(key: string, file: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(`${file}~meta.json`, 'utf8')) as Partial<Meta>;
      if (typeof meta.contentType === 'string' && meta.contentType) return meta.contentType;
    } catch {
      // missing or damaged sidecar: fall back to the extension
    }
    return contentTypeFromKey(key);
  }

  private async writeAtomically(file: string, data: Buffer | string): Promise<void> {
    const temp = `${file}~tmp-${randomUUID()}`;
    try {
      await writeFile(temp, data, { flag: 'wx' });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
