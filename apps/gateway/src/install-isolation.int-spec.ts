import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '@plink/config';
import { SmtpCatcher, createTestEnvironment, deleteRedisPrefix, freePort, testRedisUrl, type TestEnvironment } from '@plink/testing';
import { TestBrowser } from './testing/http-client';

const ROOT = join(__dirname, '../../..');
const USERS = 40;

interface Install {
  env: TestEnvironment;
  smtp: SmtpCatcher;
  gateway: ChildProcess;
  origin: string;
  prefix: string;
  output: string[];
  exited: Promise<unknown>;
}

/**
 * Two installs on one machine's Redis (two checkouts running `npm start`, or a test run beside one), each with
 * its own database and no REDIS_PREFIX set. Each must deliver every one of its own verification e-mails: when
 * both used the same default prefix, each one's workers took about half of the other's jobs and dropped them
 * ('verification e-mail not needed any more': the user is not in their database).
 */
describe('two installs sharing one Redis', () => {
  const installs: Install[] = [];

  async function start(name: string): Promise<Install> {
    const smtp = await SmtpCatcher.start();
    const port = await freePort();
    const env = await createTestEnvironment({
      SMTP_URL: smtp.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PLINK_WORKERS: 'all',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
    });
    // As an install that sets no prefix: the default, derived from its database, applies.
    delete env.vars.REDIS_PREFIX;
    const prefix = loadConfig(env.vars).redisPrefix;
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env.vars };
    delete childEnv.REDIS_PREFIX;
    delete childEnv.JEST_WORKER_ID;
    const gateway = spawn(process.execPath, [join(ROOT, 'apps/gateway/dist/main.js')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    gateway.stdout!.on('data', (d) => output.push(String(d)));
    gateway.stderr!.on('data', (d) => output.push(String(d)));
    const exited = new Promise((resolve) => gateway.on('exit', resolve));
    const origin = `http://127.0.0.1:${port}`;
    const install = { env, smtp, gateway, origin, prefix, output, exited };
    installs.push(install);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const ready = await fetch(`${origin}/health/ready`).then((r) => r.status === 200, () => false);
      if (ready) return install;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`install ${name} did not become ready\n${output.join('').slice(-3000)}`);
  }

  afterAll(async () => {
    for (const i of installs) {
      if (i.gateway.exitCode === null && i.gateway.signalCode === null) {
        i.gateway.kill('SIGTERM');
        await i.exited;
      }
      await i.env.cleanup();
      await deleteRedisPrefix(testRedisUrl(), i.prefix).catch(() => undefined);
      await i.smtp.stop();
    }
  });

  it('gives each its own prefix, and each delivers all of its own e-mails', async () => {
    const [a, b] = [await start('a'), await start('b')];
    expect(a.prefix).toMatch(/^plink:plink_test_[a-z0-9_]+-[0-9a-f]{6}:$/);
    expect(b.prefix).not.toBe(a.prefix);

    const register = (install: Install, tag: string) =>
      Promise.all(
        Array.from({ length: USERS }, async (_, n) => {
          const browser = new TestBrowser(install.origin);
          const answer = await browser.post('/api/register', { username: `${tag}_user_${n}`, email: `${tag}${n}@example.com`, password: 'a-good-password' });
          expect(answer.status).toBe(201);
        }),
      );
    await Promise.all([register(a, 'a'), register(b, 'b')]);

    const own = (install: Install, tag: string) => install.smtp.mails.filter((m) => m.to.some((t) => t.startsWith(tag)) && /verif/i.test(m.subject)).length;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (own(a, 'a') < USERS || own(b, 'b') < USERS)) await new Promise((r) => setTimeout(r, 200));
    // Every user got their e-mail, from their own install, once.
    expect({ a: own(a, 'a'), b: own(b, 'b') }).toEqual({ a: USERS, b: USERS });
    expect({ a: a.smtp.mails.length, b: b.smtp.mails.length }).toEqual({ a: USERS, b: USERS });
    for (const install of [a, b]) expect(install.output.join('')).not.toContain('not needed any more');
  }, 90_000);
});
