import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createTestEnvironment, deleteRedisPrefix, startNpmStart, type NpmStart, type TestEnvironment } from '@plink/testing';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'apps/cli/dist/main.js');

/**
 * The operator's plan commands as docs/billing.md tells an operator to run them: `npm run plink -- …` (the built command
 * line) in a checkout where `npm start` (tools/start.mjs, the gateway with every worker, on a real PostgreSQL and
 * Redis) runs, with no variables of its own, or with the variables a production install has. A command that
 * returns 0 has had its change applied: the running app answers the new plan at once. Nothing applying it within
 * the wait is said plainly, with exit code 3.
 */
describe('npm run plink -- grant-pro / revoke-pro beside npm start', () => {
  let env: TestEnvironment;
  let runtimeFile: string;
  let launcher: NpmStart | null = null;
  /** Key prefixes a test used besides the environment's own, removed at the end too. */
  const otherPrefixes: string[] = [];

  beforeAll(async () => {
    env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    runtimeFile = join(tmpdir(), `plink-npm-start-${randomBytes(4).toString('hex')}.json`);
  });

  afterAll(async () => {
    await stop();
    // The queues' settings the command's producers wrote under another prefix (a CI run found them back when a
    // test removed them right after its check): removed once everything the file started has stopped.
    for (const prefix of otherPrefixes) await deleteRedisPrefix(env.vars.REDIS_URL, prefix);
    await env?.cleanup();
    rmSync(runtimeFile, { force: true });
  });

  /** `npm start` as a developer runs it, until its workers are up too. */
  async function launch(): Promise<NpmStart> {
    launcher = await startNpmStart({ root: ROOT, env, runtimeFile, healthy: true, readyWithinMs: 60_000 });
    return launcher;
  }

  async function stop(): Promise<void> {
    const running = launcher;
    launcher = null;
    await running?.stop();
  }

  /** The built command line, with only the given variables (no DATABASE_URL, REDIS_URL or REDIS_PREFIX unless given). */
  function plink(args: string[], vars: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
    const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', PLINK_RUNTIME_FILE: runtimeFile, ...vars };
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv }, (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout: stdout.trim(), stderr: stderr.trim(), ms: Date.now() - started });
      });
    });
  }

  /** A creator registered on the running app, with the session cookie their browser would hold. */
  async function creator(origin: string): Promise<{ id: number; email: string; isPremium: (on?: string) => Promise<boolean> }> {
    const tag = randomBytes(4).toString('hex');
    const email = `ann.${tag}@example.com`;
    const answer = await fetch(`${origin}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `ann_${tag}`, email, password: 'secret-password' }),
    });
    expect(answer.status).toBe(201);
    const cookie = answer.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const { id } = (await answer.json()) as { id: number };
    const isPremium = async (on = origin) => ((await (await fetch(`${on}/api/user`, { headers: { cookie } })).json()) as { isPremium: boolean }).isPremium;
    return { id, email, isPremium };
  }

  it('with no variables finds the running app: once grant-pro returns the user is Pro, once revoke-pro returns they are not', async () => {
    const app = await launch();
    const ann = await creator(app.origin);
    expect(await ann.isPremium()).toBe(false);

    const granted = await plink(['grant-pro', ann.email]);
    expect(granted).toMatchObject({ code: 0, stdout: `Granted Pro to ${ann.email} (user ${ann.id}) without end.`, stderr: '' });
    expect(await ann.isPremium()).toBe(true);

    const revoked = await plink(['revoke-pro', ann.email]);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked Pro from ${ann.email} (user ${ann.id}).`, stderr: '' });
    expect(await ann.isPremium()).toBe(false);

    // The recipe the docs gave before: the embedded database named by hand, nothing else. It is npm start's
    // database, so the command takes npm start's Redis and key prefix with it.
    const byHand = await plink(['grant-pro', ann.email, '--days', '30'], { DATABASE_URL: env.vars.DATABASE_URL });
    expect(byHand.code).toBe(0);
    expect(byHand.stdout).toMatch(new RegExp(`^Granted Pro to ${ann.email.replace(/\./g, '\\.')} \\(user ${ann.id}\\) until \\d{4}-`));
    expect(await ann.isPremium()).toBe(true);
    expect((await plink(['revoke-pro', ann.email])).code).toBe(0);
    expect(await ann.isPremium()).toBe(false);

    // A key prefix that is not the app's: the command puts nothing into Redis itself (the running app's relay
    // passes the change on under its own prefix), so the change still applies and nothing lands under it.
    const mistaken = `plink-mistaken-${randomBytes(3).toString('hex')}:`;
    otherPrefixes.push(mistaken);
    const wrong = await plink(['grant-pro', ann.email], { DATABASE_URL: env.vars.DATABASE_URL, REDIS_URL: env.vars.REDIS_URL, REDIS_PREFIX: mistaken });
    expect({ code: wrong.code, stderr: wrong.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await ann.isPremium()).toBe(true);
    const redis = new Redis(env.vars.REDIS_URL);
    try {
      // (Connecting a queue producer writes its queue's settings, `…:meta`; a job would add more.)
      expect((await redis.keys(`${mistaken}*`)).filter((key) => !key.endsWith(':meta'))).toEqual([]);
    } finally {
      redis.disconnect();
    }
    expect((await plink(['revoke-pro', ann.email])).code).toBe(0);
  }, 120_000);

  it('answers an unknown or reserved address with one line and exit 1, changing nothing', async () => {
    for (const [email, line] of [
      ['nobody@example.com', 'plink: No user has the e-mail address nobody@example.com.'],
      ['examples@plink.invalid', "plink: examples@plink.invalid is Plink's own account for the example pages, not a creator's; nothing changed."],
    ]) {
      const result = await plink(['grant-pro', email]);
      expect({ email, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ email, code: 1, stdout: '', stderr: line });
    }
    const bad = await plink(['revoke-pro', 'not-an-address']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('plink: "not-an-address" is not an e-mail address.');
  }, 60_000);

  it('with no worker running says plainly that the change is queued (exit 3 within the wait), and a worker applies it later', async () => {
    const app = launcher!;
    const ann = await creator(app.origin);
    await stop();

    const alone = await plink(['grant-pro', ann.email]);
    expect(alone.code).toBe(1);
    expect(alone.stderr.split('\n')).toHaveLength(1);
    expect(alone.stderr).toMatch(/^plink: DATABASE_URL is not set and no npm start runs in this checkout/);

    // A production install's variables, no Plink process running.
    const production = { DATABASE_URL: env.vars.DATABASE_URL, REDIS_URL: env.vars.REDIS_URL, REDIS_PREFIX: env.vars.REDIS_PREFIX };
    const queued = await plink(['grant-pro', ann.email, '--wait', '2'], production);
    expect(queued.code).toBe(3);
    expect(queued.stdout).toBe(`Granted Pro to ${ann.email} (user ${ann.id}) without end.`);
    expect(queued.stderr.split('\n')).toHaveLength(1);
    expect(queued.stderr).toMatch(/^plink: queued; will apply when a Plink worker runs \(not applied within 2 s/);
    expect(queued.ms).toBeLessThan(20_000);

    const again = await launch();
    const deadline = Date.now() + 30_000;
    while (!(await ann.isPremium(again.origin))) {
      if (Date.now() > deadline) throw new Error('the queued grant was not applied once a worker ran');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);
});
