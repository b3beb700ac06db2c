import { LocalStorage, type ListedObject } from '@plink/storage';
import { loadConfig } from '@plink/config';
import { newUploadKey } from '@plink/contracts';
import type { DeleteUploadsService } from './delete-uploads.service';
import { SWEEP_BATCH_SIZE, SweepUploadsService } from './sweep-uploads.service';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-20T12:00:00.000Z');
const config = loadConfig({ DATABASE_URL: 'postgres://localhost/plink' });

/** A store that lists what the test gives it, and counts how far the listing was read. */
class ListedStorage extends LocalStorage {
  objects: ListedObject[] = [];
  prefixes: string[] = [];
  read = 0;
  override async *list(prefix: string): AsyncIterable<ListedObject> {
    this.prefixes.push(prefix);
    for (const object of this.objects) {
      this.read += 1;
      yield object;
    }
  }
}

function setup(inUse: Set<string> = new Set()) {
  const storage = new ListedStorage('/tmp/plink-never-written');
  const batches: { keys: string[]; readWhenCalled: number }[] = [];
  const deleteUploads = {
    removeUnused: async (keys: string[]) => {
      batches.push({ keys: [...keys], readWhenCalled: storage.read });
      const removed = keys.filter((key) => !inUse.has(key));
      return { removed, kept: keys.length - removed.length };
    },
  } as unknown as DeleteUploadsService;
  return { storage, batches, service: new SweepUploadsService(storage, deleteUploads, config) };
}

const aged = (key: string, hours: number): ListedObject => ({ key, size: 10, lastModified: new Date(NOW.getTime() - hours * HOUR) });

describe('SweepUploadsService', () => {
  it('hands over only upload keys older than the grace period, and counts what went and what stayed', async () => {
    const [old, oldUsed, fresh, edge] = [newUploadKey(1, 'main', 'jpg'), newUploadKey(1, 'meta', 'jpg'), newUploadKey(2, 'main', 'png'), newUploadKey(3, 'favicon', 'png')];
    const { storage, batches, service } = setup(new Set([oldUsed]));
    storage.objects = [aged(old, 48), aged(oldUsed, 30), aged(fresh, 23.9), aged(edge, 24), aged('u1/not-an-upload.txt', 100), aged('uploads-manifest.json', 100)];

    const result = await service.execute({ now: NOW });

    expect(storage.prefixes).toEqual(['u']);
    expect(batches.map((b) => b.keys)).toEqual([[old, oldUsed, edge]]);
    expect(result).toEqual({ listed: 4, fresh: 1, removed: 2, kept: 1 });
  });

  it('takes the grace period from the config, or as told', async () => {
    expect(config.uploadOrphanGraceHours).toBe(24);
    const key = newUploadKey(1, 'main', 'jpg');
    const { storage, service } = setup();
    storage.objects = [aged(key, 30)];
    expect((await service.execute({ now: NOW })).removed).toBe(1);
    expect((await service.execute({ now: NOW, graceHours: 48 })).fresh).toBe(1);
  });

  it(`works in batches of ${SWEEP_BATCH_SIZE} while the listing goes on`, async () => {
    const { storage, batches, service } = setup();
    storage.objects = Array.from({ length: 2 * SWEEP_BATCH_SIZE + 7 }, (_, i) => aged(newUploadKey(i + 1, 'main', 'jpg'), 48));
    const result = await service.execute({ now: NOW });
    expect(batches.map((b) => b.keys.length)).toEqual([SWEEP_BATCH_SIZE, SWEEP_BATCH_SIZE, 7]);
    // Each full batch is settled as soon as it is full, not after the whole store was read.
    expect(batches.map((b) => b.readWhenCalled)).toEqual([SWEEP_BATCH_SIZE, 2 * SWEEP_BATCH_SIZE, 2 * SWEEP_BATCH_SIZE + 7]);
    expect(result.removed).toBe(2 * SWEEP_BATCH_SIZE + 7);
  });

  it('does nothing on an empty store', async () => {
    const { batches, service } = setup();
    expect(await service.execute({ now: NOW })).toEqual({ listed: 0, fresh: 0, removed: 0, kept: 0 });
    expect(batches).toEqual([]);
  });

  it('fails when the store fails, so the job is tried again', async () => {
    const { storage, service } = setup();
    storage.list = async function* () {
      yield aged(newUploadKey(1, 'main', 'jpg'), 48);
      throw new Error('S3 is unreachable');
    };
    await expect(service.execute({ now: NOW })).rejects.toThrow('S3 is unreachable');
  });
});
