import { mkdir, mkdtemp, readdir, rm, stat, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { LocalStorage } from './local.storage';
import { describeStorageContract, listAll, readAll } from './storage.contract';

/** Every file and folder under `dir`, relative to it. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.map((e) => relative(dir, join(e.parentPath, e.name)));
}

// The adapter's root lies one level below `base`, so a key escaping the root would show up in base.
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'plink-local-storage-'));
  root = join(base, 'uploads', 'nested'); // not created: the adapter creates it on demand
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describeStorageContract('LocalStorage', () => new LocalStorage(root), { snapshot: () => listTree(base) });

describe('LocalStorage specifics', () => {
  let storage: LocalStorage;
  let dir: string;

  beforeEach(async () => {
    dir = join(base, `case-${Math.random().toString(36).slice(2)}`);
    storage = new LocalStorage(dir);
  });

  it('creates its root folder on first put and stores plain files under it', async () => {
    await expect(stat(dir)).rejects.toThrow();
    await storage.put('a/b.png', Buffer.from('png'), 'image/png');
    expect((await stat(join(dir, 'a', 'b.png'))).isFile()).toBe(true);
    expect(storage.root).toBe(dir);
  });

  it('leaves no temporary files behind', async () => {
    await storage.put('x.png', Buffer.from('1'), 'image/png');
    await storage.put('x.png', Buffer.from('2'), 'image/png');
    expect((await listTree(dir)).sort()).toEqual(['x.png', 'x.png~meta.json']);
  });

  it('removes the sidecar with the file', async () => {
    await storage.put('y.png', Buffer.from('1'), 'image/png');
    await storage.delete('y.png');
    expect(await listTree(dir)).toEqual([]);
  });

  it('falls back to the extension when the content-type sidecar is missing', async () => {
    await storage.put('photo.jpg', Buffer.from('jpeg'), 'image/jpeg');
    await unlink(join(dir, 'photo.jpg~meta.json'));
    const photo = await storage.get('photo.jpg');
    expect(photo!.contentType).toBe('image/jpeg');
    await readAll(photo!.body);
    await storage.put('blob', Buffer.from('?'), 'image/png');
    await unlink(join(dir, 'blob~meta.json'));
    const blob = await storage.get('blob');
    expect(blob!.contentType).toBe('application/octet-stream');
    await readAll(blob!.body);
  });

  it('treats a folder as no object', async () => {
    await storage.put('folder/inner.png', Buffer.from('x'), 'image/png');
    expect(await storage.get('folder')).toBeNull();
    expect(await storage.exists('folder')).toBe(false);
    await expect(storage.delete('folder')).resolves.toBeUndefined();
    expect(await storage.exists('folder/inner.png')).toBe(true);
  });

  it('keeps streaming the version a reader opened while it is replaced or deleted', async () => {
    const first = Buffer.alloc(256 * 1024, 1);
    await storage.put('live.bin', first, 'application/octet-stream');
    const reading = await storage.get('live.bin');
    await storage.put('live.bin', Buffer.alloc(10, 2), 'application/octet-stream');
    await storage.delete('live.bin');
    expect(reading!.size).toBe(first.length);
    expect((await readAll(reading!.body)).equals(first)).toBe(true);
  });

  it('lists only stored objects: no sidecars, temporary files of writes in progress, links or odd names', async () => {
    await storage.put('u1/a.png', Buffer.from('a'), 'image/png');
    await writeFile(join(dir, 'u1', 'b.png~tmp-3f2a'), 'half a file'); // a write in progress
    await writeFile(join(dir, 'u1', 'with space.png'), 'not a key');
    await symlink(join(dir, 'u1', 'a.png'), join(dir, 'u1', 'link.png'));
    await mkdir(join(base, 'elsewhere'), { recursive: true });
    await writeFile(join(base, 'elsewhere', 'secret.png'), 'outside the root');
    await symlink(join(base, 'elsewhere'), join(dir, 'u1', 'linked-folder'));
    expect((await listAll(storage, '')).map((o) => o.key)).toEqual(['u1/a.png']);
    expect((await listAll(storage, 'u1/')).map((o) => o.key)).toEqual(['u1/a.png']);
  });

  it('lists nothing before the root folder exists', async () => {
    expect(await listAll(storage, '')).toEqual([]);
    expect(await listAll(storage, 'u1/')).toEqual([]);
  });

  it('reports the file time as lastModified', async () => {
    await storage.put('old.png', Buffer.from('old'), 'image/png');
    const then = new Date('2024-01-02T03:04:05.000Z');
    await utimes(join(dir, 'old.png'), then, then);
    expect(await listAll(storage, 'old')).toEqual([{ key: 'old.png', size: 3, lastModified: then }]);
  });

  it('uses /uploads/{key} as public URL', () => {
    expect(storage.publicUrl('u/1.png')).toBe('/uploads/u/1.png');
  });
});
