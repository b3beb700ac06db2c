import { LocalStorage } from '@plink/storage';
import { loadConfig } from '@plink/config';
import { UploadUrls, newUploadKey, type UploadUsage } from '@plink/contracts';
import { DeleteUploadsService } from './delete-uploads.service';

const config = loadConfig({ DATABASE_URL: 'postgres://localhost/plink' });

/** A storage that records what it is asked to delete, and fails while `down`. */
class RecordingStorage extends LocalStorage {
  deleted: string[][] = [];
  down = false;
  override async deleteMany(keys: string[]): Promise<void> {
    if (this.down) throw new Error('S3 is unreachable');
    this.deleted.push(keys);
  }
}

describe('DeleteUploadsService', () => {
  const inUse = new Set<string>();
  const usage: UploadUsage = {
    usesUpload: async (urls: string[]) => urls.some((url) => inUse.has(url)),
  };
  const storage = new RecordingStorage('/tmp/plink-never-written');
  const service = new DeleteUploadsService(usage, new UploadUrls(storage, config), storage);

  it('deletes the keys no page shows and keeps the others', async () => {
    const [gone, kept] = [newUploadKey(1, 'main', 'jpg'), newUploadKey(1, 'meta', 'jpg')];
    inUse.add(`/uploads/${kept}`);
    await service.execute([gone, kept, gone]);
    expect(storage.deleted).toEqual([[gone]]);
  });

  it('says which keys went and how many stayed, leaving alone what is no upload key', async () => {
    storage.deleted = [];
    const [gone, kept] = [newUploadKey(3, 'main', 'jpg'), newUploadKey(3, 'background', 'jpg')];
    inUse.add(`/uploads/${kept}`);
    expect(await service.removeUnused([gone, kept, gone, 'u3/notes.txt'])).toEqual({ removed: [gone], kept: 1 });
    expect(storage.deleted).toEqual([[gone]]);
    expect(await service.removeUnused([kept])).toEqual({ removed: [], kept: 1 });
    expect(storage.deleted).toEqual([[gone]]);
  });

  it('throws while the store is down, so the job is tried again', async () => {
    storage.down = true;
    await expect(service.execute([newUploadKey(2, 'favicon', 'png')])).rejects.toThrow('S3 is unreachable');
    storage.down = false;
  });
});
