// The behaviour every Storage adapter must show, run by each adapter's *.int-spec.ts.
// Test-only: nothing in the library imports this file.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { assertSafeKey, type ListedObject, type Storage } from './storage.port';

export interface StorageContractOptions {
  /**
   * Every file or object name the backend holds (its whole folder, not only the adapter's root),
   * to prove that a rejected key wrote nothing anywhere.
   */
  snapshot: () => Promise<string[]>;
  /** The URL publicUrl(key) must return; `/uploads/{key}` unless told. */
  expectedPublicUrl?: (key: string) => string;
}

/** Keys that must be refused before any I/O. */
export const UNSAFE_KEYS: readonly string[] = [
  '../x',
  '/etc/passwd',
  'a/../../b',
  '',
  'a'.repeat(300),
  '..',
  '.',
  'a/./b',
  'a//b',
  'a/',
  'a\\..\\b',
  'a b',
  'x\u0000y',
  'é.png',
  '%2e%2e/x',
];

/** Every object `storage.list(prefix)` yields, sorted by key. */
export async function listAll(storage: Storage, prefix: string): Promise<ListedObject[]> {
  const listed: ListedObject[] = [];
  for await (const item of storage.list(prefix)) listed.push(item);
  return listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export function describeStorageContract(
  name: string,
  makeStorage: () => Storage | Promise<Storage>,
  options: StorageContractOptions,
): void {
  describe(`Storage contract: ${name}`, () => {
    let storage: Storage;
    // Each test works under its own prefix, so tests never see each other's objects.
    const prefix = () => `t-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      storage = await makeStorage();
    });

    it('returns the same bytes, content type and size after put', async () => {
      const key = `${prefix()}/hello.txt`;
      const body = Buffer.from('hello, storage\n');
      await storage.put(key, body, 'text/plain; charset=utf-8');
      const got = await storage.get(key);
      expect(got).not.toBeNull();
      expect(got!.contentType).toBe('text/plain; charset=utf-8');
      expect(got!.size).toBe(body.length);
      expect((await readAll(got!.body)).equals(body)).toBe(true);
    });

    it('keeps the content type given, whatever the extension says', async () => {
      const key = `${prefix()}/picture.bin`;
      await storage.put(key, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
      const got = await storage.get(key);
      expect(got!.contentType).toBe('image/png');
      await readAll(got!.body);
    });

    it('returns null for a missing key', async () => {
      expect(await storage.get(`${prefix()}/missing.png`)).toBeNull();
      expect(await storage.get(`${prefix()}/deeper/still/missing.png`)).toBeNull();
    });

    it('tells whether a key exists', async () => {
      const key = `${prefix()}/there.png`;
      expect(await storage.exists(key)).toBe(false);
      await storage.put(key, Buffer.from('x'), 'image/png');
      expect(await storage.exists(key)).toBe(true);
    });

    it('overwrites an object with a new body and content type', async () => {
      const key = `${prefix()}/logo`;
      await storage.put(key, Buffer.from('first version, rather long'), 'text/plain');
      await storage.put(key, Buffer.from('second'), 'image/webp');
      const got = await storage.get(key);
      expect(got!.contentType).toBe('image/webp');
      expect(got!.size).toBe(6);
      expect((await readAll(got!.body)).toString()).toBe('second');
    });

    it('stores an empty body', async () => {
      const key = `${prefix()}/empty.txt`;
      await storage.put(key, Buffer.alloc(0), 'text/plain');
      const got = await storage.get(key);
      expect(got!.size).toBe(0);
      expect((await readAll(got!.body)).length).toBe(0);
    });

    it('deletes an object: get is then null and exists false', async () => {
      const key = `${prefix()}/gone.png`;
      await storage.put(key, Buffer.from('bye'), 'image/png');
      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      expect(await storage.exists(key)).toBe(false);
    });

    it('deletes a missing key without error', async () => {
      await expect(storage.delete(`${prefix()}/never-there.png`)).resolves.toBeUndefined();
      await expect(storage.delete(`${prefix()}/no/such/folder.png`)).resolves.toBeUndefined();
    });

    it('deletes many keys at once, ignoring missing ones and keeping the others', async () => {
      const p = prefix();
      const keys = [`${p}/a.png`, `${p}/b.png`, `${p}/sub/c.png`];
      for (const key of [...keys, `${p}/keep.png`]) await storage.put(key, Buffer.from(key), 'image/png');
      await storage.deleteMany([...keys, `${p}/missing.png`, keys[0]]);
      for (const key of keys) expect(await storage.exists(key)).toBe(false);
      expect(await storage.exists(`${p}/keep.png`)).toBe(true);
      await expect(storage.deleteMany([])).resolves.toBeUndefined();
    });

    it('deletes nothing when one key of deleteMany is unsafe', async () => {
      const key = `${prefix()}/survivor.png`;
      await storage.put(key, Buffer.from('x'), 'image/png');
      await expect(storage.deleteMany([key, '../x'])).rejects.toThrow(/Unsafe storage key/);
      expect(await storage.exists(key)).toBe(true);
    });

    it('rejects unsafe keys in every method and writes nothing', async () => {
      const before = (await options.snapshot()).sort();
      for (const key of UNSAFE_KEYS) {
        await expect(storage.put(key, Buffer.from('evil'), 'text/plain')).rejects.toThrow(/Unsafe storage key/);
        await expect(storage.get(key)).rejects.toThrow(/Unsafe storage key/);
        await expect(storage.exists(key)).rejects.toThrow(/Unsafe storage key/);
        await expect(storage.delete(key)).rejects.toThrow(/Unsafe storage key/);
        expect(() => storage.publicUrl(key)).toThrow(/Unsafe storage key/);
      }
      expect((await options.snapshot()).sort()).toEqual(before);
    });

    it('accepts every allowed character, nested folders and a 200-character key', async () => {
      const p = prefix();
      const keys = [`${p}/A-z_0.9/x.Y-1_2.png`, `${p}/${'k'.repeat(200 - p.length - 1)}`];
      expect(keys[1]).toHaveLength(200);
      for (const key of keys) {
        await storage.put(key, Buffer.from(key), 'image/png');
        expect((await readAll((await storage.get(key))!.body)).toString()).toBe(key);
      }
    });

    it('rejects an invalid content type and writes nothing', async () => {
      const key = `${prefix()}/bad-type.png`;
      await expect(storage.put(key, Buffer.from('x'), '')).rejects.toThrow(/content type/);
      await expect(storage.put(key, Buffer.from('x'), 'text/plain\r\nX-Evil: 1')).rejects.toThrow(/content type/);
      expect(await storage.exists(key)).toBe(false);
    });

    it('builds public URLs', () => {
      const expected = options.expectedPublicUrl ?? ((key: string) => `/uploads/${key}`);
      for (const key of ['logo.png', 'u-1/avatars/me.webp']) expect(storage.publicUrl(key)).toBe(expected(key));
    });

    it('round-trips a 2 MB body intact', async () => {
      const key = `${prefix()}/big.bin`;
      const body = randomBytes(2 * 1024 * 1024);
      await storage.put(key, body, 'application/octet-stream');
      const got = await storage.get(key);
      expect(got!.size).toBe(body.length);
      const read = await readAll(got!.body);
      expect(read.length).toBe(body.length);
      expect(createHash('sha256').update(read).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    });

    it('serves concurrent puts and gets of different keys', async () => {
      const p = prefix();
      const keys = Array.from({ length: 20 }, (_, i) => `${p}/c${i}.txt`);
      await Promise.all(keys.map((key) => storage.put(key, Buffer.from(key), 'text/plain')));
      const bodies = await Promise.all(keys.map(async (key) => (await readAll((await storage.get(key))!.body)).toString()));
      expect(bodies).toEqual(keys);
    });

    it('lists the objects under a prefix, nested ones included, with their sizes and times', async () => {
      const p = prefix();
      const started = Date.now();
      const bodies: Record<string, string> = {
        [`${p}/a.png`]: 'a',
        [`${p}/sub/b.png`]: 'bb',
        [`${p}/sub/deeper/c.png`]: 'ccc',
        [`${p}/sub-d.png`]: 'dddd',
      };
      for (const [key, body] of Object.entries(bodies)) await storage.put(key, Buffer.from(body), 'image/png');
      // Beside the prefix, not under it.
      await storage.put(`${p}x/outside.png`, Buffer.from('x'), 'image/png');

      const listed = await listAll(storage, `${p}/`);
      expect(listed.map((o) => o.key)).toEqual(Object.keys(bodies).sort());
      for (const item of listed) {
        expect(item.size).toBe(bodies[item.key].length);
        expect(item.lastModified).toBeInstanceOf(Date);
        // S3 reports whole seconds: allow for the rounding and a little clock skew.
        expect(item.lastModified.getTime()).toBeGreaterThan(started - 5_000);
        expect(item.lastModified.getTime()).toBeLessThan(Date.now() + 5_000);
      }
      expect((await listAll(storage, p)).map((o) => o.key)).toEqual([...Object.keys(bodies), `${p}x/outside.png`].sort());
    });

    it('lists by a prefix that ends inside a name', async () => {
      const p = prefix();
      for (const key of [`${p}/main-1.png`, `${p}/main-2/inner.png`, `${p}/meta-1.png`, `${p}/mainly.png`]) {
        await storage.put(key, Buffer.from('x'), 'image/png');
      }
      expect((await listAll(storage, `${p}/main-`)).map((o) => o.key)).toEqual([`${p}/main-1.png`, `${p}/main-2/inner.png`]);
      expect((await listAll(storage, `${p}/sub`)).map((o) => o.key)).toEqual([]);
    });

    it('lists nothing under an unused prefix, and no longer lists what was deleted', async () => {
      const p = prefix();
      expect(await listAll(storage, `${p}/`)).toEqual([]);
      expect(await listAll(storage, `${p}/no/such/folder/`)).toEqual([]);
      await storage.put(`${p}/gone.png`, Buffer.from('x'), 'image/png');
      await storage.put(`${p}/stays.png`, Buffer.from('x'), 'image/png');
      await storage.deleteMany([`${p}/gone.png`]);
      expect((await listAll(storage, `${p}/`)).map((o) => o.key)).toEqual([`${p}/stays.png`]);
    });

    it('lists everything under the empty prefix, each key safe and usable', async () => {
      const key = `${prefix()}/everything.png`;
      await storage.put(key, Buffer.from('all'), 'image/png');
      const listed = await listAll(storage, '');
      expect(listed.map((o) => o.key)).toContain(key);
      for (const item of listed) expect(() => assertSafeKey(item.key)).not.toThrow();
      expect(await storage.exists(key)).toBe(true);
    });

    it('refuses an unsafe prefix before any I/O', async () => {
      const before = (await options.snapshot()).sort();
      for (const bad of ['../', '/', '/etc', 'a/../../', 'a//', '.', './', 'a b', 'é/', 'x'.repeat(300)]) {
        await expect(listAll(storage, bad)).rejects.toThrow(/Unsafe storage key/);
      }
      await expect(listAll(storage, undefined as unknown as string)).rejects.toThrow(/must be a string/);
      expect((await options.snapshot()).sort()).toEqual(before);
    });
  });
}
