import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import {
  assertContentType,
  assertSafeKey,
  assertSafePrefix,
  buildPublicUrl,
  contentTypeFromKey,
  isSafeKey,
  Storage,
  type ListedObject,
  type StoredObject,
} from './storage.port';

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
 * - `list` walks the folders below the prefix one folder at a time (names of one folder in memory, never
 *   the whole tree), skipping sidecars, temporary files of writes in progress, symbolic links and
 *   anything else whose name is not a safe key.
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

  async putStream(key: string, body: NodeJS.ReadableStream, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    assertContentType(contentType);
    await mkdir(dirname(file), { recursive: true });
    await this.writeAtomically(`${file}~meta.json`, JSON.stringify({ contentType } satisfies Meta));
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

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertSafePrefix(prefix);
    // Start in the deepest folder the prefix names whole: `u1/ma` → `u1/`.
    const start = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    yield* this.walk(start, prefix);
  }

  publicUrl(key: string): string {
    return buildPublicUrl(key);
  }

  /** The objects under folder `dirKey` (`''` or ending with `/`) whose keys start with `prefix`, depth first. */
  private async *walk(dirKey: string, prefix: string): AsyncGenerator<ListedObject> {
    const dir = dirKey ? this.pathOf(dirKey.slice(0, -1)) : this.root;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return; // no such folder (yet), or removed meanwhile
      throw error;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const key = dirKey + entry.name;
      // Sidecars and temporary files carry `~`, which no key may hold; odd names are not ours either.
      if (!isSafeKey(key)) continue;
      if (entry.isDirectory()) {
        const folder = `${key}/`;
        if (folder.startsWith(prefix) || prefix.startsWith(folder)) yield* this.walk(folder, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        let stats;
        try {
          stats = await lstat(this.pathOf(key));
        } catch (error) {
          if (isMissing(error)) continue; // deleted since the folder was read
          throw error;
        }
        // A Date of this realm (fs hands out its own), from the file time in milliseconds.
        if (stats.isFile()) yield { key, size: stats.size, lastModified: new Date(stats.mtimeMs) };
      }
    }
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

  private async writeAtomically(file: string, data: Buffer | string | NodeJS.ReadableStream): Promise<void> {
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
