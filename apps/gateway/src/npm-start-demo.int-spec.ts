import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CREATOR } from '@plink/identity';
import { createTestEnvironment, startNpmStart, type TestEnvironment } from '@plink/testing';
import { TestBrowser } from './testing/http-client';

const ROOT = join(__dirname, '../../..');

interface Run {
  /** What the launcher itself printed (stderr), line by line. */
  launcher: string[];
  /** The app's log (stdout). */
  log: string;
  origin: string;
}

/**
 * `npm start` (tools/start.mjs with the built gateway) as a developer runs it on an empty database: the demo
 * creator's sign-in is printed under the URL, works, and is printed again on the next start; the app's log never
 * holds it; a production start prints none.
 */
describe('npm start and the demo creator', () => {
  let env: TestEnvironment;
  let runtimeFile: string;

  beforeAll(async () => {
    env = await createTestEnvironment({ LOG_LEVEL: 'info' });
    runtimeFile = join(tmpdir(), `plink-npm-start-${randomBytes(4).toString('hex')}.json`);
  });

  afterAll(async () => {
    await env?.cleanup();
    rmSync(runtimeFile, { force: true });
  });

  /** Runs npm start until it is ready, then `during` with what it printed so far, then stops it with SIGTERM. */
  async function npmStart(vars: Record<string, string> = {}, during?: (run: Run) => Promise<void>): Promise<Run> {
    // npm start's own default (development), unless the case says otherwise; jest sets `test`.
    const app = await startNpmStart({ root: ROOT, env, runtimeFile, vars: { NODE_ENV: undefined, ...vars } });
    const run = () => ({ launcher: app.launcher(), log: app.log(), origin: app.origin });
    try {
      // The sign-in, when there is one, is written with the ready line; give a late one a moment anyway.
      await new Promise((r) => setTimeout(r, 500));
      await during?.(run());
    } finally {
      await app.stop();
    }
    return run();
  }

  const readyLine = (run: Run) => run.launcher.findIndex((line) => line.startsWith('[plink] 4/4 ready in ') && line.endsWith(`: ${run.origin}`));

  it('prints the demo creator sign-in under the URL on an empty database, which signs in, and again on the next start; the log never holds it', async () => {
    const first = await npmStart({}, async (run) => {
      const printed = /sign in as the demo creator: (\S+) \/ (\S+)/.exec(run.launcher.join('\n'));
      expect(printed).not.toBeNull();
      const browser = new TestBrowser(run.origin);
      expect((await browser.post('/api/login', { email: printed![1], password: printed![2] })).status).toBe(200);
      expect((await browser.get('/api/pages')).body).toEqual([expect.objectContaining({ slug: 'launch-checklist' })]);
    });
    const ready = readyLine(first);
    expect(ready).toBeGreaterThan(-1);
    expect(first.launcher[ready + 1]).toBe(
      `[plink]     sign in as the demo creator: ${DEMO_CREATOR.email} / ${DEMO_CREATOR.password}  (development only; made now, with a sample page and leads)`,
    );
    expect(first.log).toContain('demo creator made on the empty database');
    expect(first.log).not.toContain(DEMO_CREATOR.email);
    expect(first.log).not.toContain(DEMO_CREATOR.password);

    const second = await npmStart();
    expect(second.launcher[readyLine(second) + 1]).toBe(`[plink]     sign in as the demo creator: ${DEMO_CREATOR.email} / ${DEMO_CREATOR.password}  (development only)`);
    expect(second.log).not.toContain('demo creator made');
  }, 240_000);

  it('prints no sign-in in production, even on a database that holds the demo creator', async () => {
    // The database of the case above.
    const run = await npmStart({ NODE_ENV: 'production' });
    expect(readyLine(run)).toBeGreaterThan(-1);
    expect(run.launcher.join('\n')).not.toContain('demo creator');
  }, 120_000);
});
