import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withNpmStartSettings } from './npm-start-settings';

/** Which settings a command in a checkout takes from the `npm start` running there. */
describe('withNpmStartSettings', () => {
  let dir: string;
  let file: string;
  const running = {
    DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:5434/plink',
    REDIS_URL: 'redis://127.0.0.1:6390',
    REDIS_PREFIX: 'plink:checkout-abc123:',
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plink-settings-'));
    file = join(dir, 'npm-start.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (pid: number) => writeFileSync(file, JSON.stringify({ pid, ...running }));

  it('gives a command without variables the database, Redis and prefix of the running npm start', () => {
    write(process.pid);
    expect(withNpmStartSettings({ PLINK_RUNTIME_FILE: file, DATABASE_URL: '' })).toMatchObject(running);
  });

  it("completes a DATABASE_URL naming npm start's database with its Redis and prefix (its password aside)", () => {
    write(process.pid);
    const env = withNpmStartSettings({ PLINK_RUNTIME_FILE: file, DATABASE_URL: 'postgresql://postgres:other@127.0.0.1:5434/plink' });
    expect(env).toMatchObject({ DATABASE_URL: 'postgresql://postgres:other@127.0.0.1:5434/plink', REDIS_URL: running.REDIS_URL, REDIS_PREFIX: running.REDIS_PREFIX });
    // What the operator gives wins.
    expect(withNpmStartSettings({ PLINK_RUNTIME_FILE: file, REDIS_PREFIX: 'plink:' }).REDIS_PREFIX).toBe('plink:');
  });

  it("adds nothing for another install's database, for an npm start that is gone, or without the file", () => {
    write(process.pid);
    const other = { PLINK_RUNTIME_FILE: file, DATABASE_URL: 'postgres://db.internal:5432/plink' };
    expect(withNpmStartSettings(other)).toEqual(other);

    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    write(gone);
    expect(withNpmStartSettings({ PLINK_RUNTIME_FILE: file })).toEqual({ PLINK_RUNTIME_FILE: file });

    rmSync(file);
    expect(withNpmStartSettings({ PLINK_RUNTIME_FILE: file })).toEqual({ PLINK_RUNTIME_FILE: file });
  });
});
