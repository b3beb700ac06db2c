import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CREATOR } from '@plink/identity';
import { createTestEnvironment, freePort, type TestEnvironment } from '@plink/testing';
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

  /**
   * Runs npm start (build skipped: the test runs on what is built) until it is ready, then `during` with what it
   * printed so far, then stops it with SIGTERM.
   */
  async function npmStart(vars: Record<string, string> = {}, during?: (run: Run) => Promise<void>): Promise<Run> {
    const port = await freePort();
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env.vars,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      PLINK_SKIP_BUILD: '1',
      PLINK_RUNTIME_FILE: runtimeFile,
      ...vars,
    };
    delete childEnv.JEST_WORKER_ID;
    delete childEnv.PLINK_WORKERS;
    // npm start's own default (development), unless the case says otherwise; jest sets `test`.
    if (!vars.NODE_ENV) delete childEnv.NODE_ENV;
    const child = spawn(process.execPath, [join(ROOT, 'tools/start.mjs')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.stdout!.on('data', (d) => (stdout += String(d)));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const origin = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 90_000;
      while (!/\[plink\] 4\/4 ready/.test(stderr)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not become ready\n${(stderr + stdout).slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // The sign-in, when there is one, is written with the ready line; give a late one a moment anyway.
      await new Promise((r) => setTimeout(r, 500));
      await during?.({ launcher: stderr.split('\n'), log: stdout, origin });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    return { launcher: stderr.split('\n'), log: stdout, origin };
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
