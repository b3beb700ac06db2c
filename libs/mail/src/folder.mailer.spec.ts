import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderMailer } from './folder.mailer';

describe('FolderMailer (real folder)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plink-mail-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every one of 2,000 same-subject messages sent at once, each complete, and prints each', async () => {
    const lines: string[] = [];
    const mailer = new FolderMailer(dir, 'Plink <no-reply@plink.local>', (line) => lines.push(line));
    const count = 2_000;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        mailer.send({
          to: `person${i}@example.com`,
          subject: 'Verify your email',
          text: `Message number ${i}: https://plink.test/verify-email?token=t${i}`,
          html: `<p>Message number ${i}</p>`,
        }),
      ),
    );

    const names = await readdir(dir);
    expect(names.filter((name) => !name.endsWith('.eml'))).toEqual([]);
    expect(new Set(names).size).toBe(count);

    const numbers = new Set<number>();
    for (const name of names) {
      const content = await readFile(join(dir, name), 'utf8');
      const match = /Message number (\d+):/.exec(content);
      expect(match).not.toBeNull();
      numbers.add(Number(match![1]));
      expect(content).toContain(`To: person${match![1]}@example.com`);
      // A complete multipart message ends with its closing boundary.
      const boundary = /boundary="([^"]+)"/.exec(content)?.[1];
      expect(boundary).toBeDefined();
      expect(content.trimEnd().endsWith(`--${boundary}--`)).toBe(true);
    }
    expect(numbers.size).toBe(count);

    expect(lines.filter((line) => line.includes('"Verify your email" written to'))).toHaveLength(count);
    expect(lines.filter((line) => line.startsWith('[mail]   link: https://plink.test/verify-email?token=t'))).toHaveLength(count);
  }, 60_000);

  it('names files by time first, so the folder lists them in order', () => {
    const name = FolderMailer.fileName('Reset your password!', new Date('2026-11-23T10:00:00.123Z'));
    expect(name).toMatch(/^2026-11-23T10-00-00-123Z-[0-9a-f]{12}-reset-your-password$/);
    expect(FolderMailer.fileName('Same', new Date(0))).not.toBe(FolderMailer.fileName('Same', new Date(0)));
  });
});
