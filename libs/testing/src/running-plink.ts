import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { linkIn, SmtpCatcher } from './smtp-catcher';
import { createTestEnvironment, type TestEnvironment } from './test-environment';
import { startNpmStart, type NpmStart } from './npm-start';

/** A creator of the running Plink, as an automation tool sees them: an API token and one page. */
export interface PlinkCreator {
  id: number;
  email: string;
  /** Their browser session (Cookie header), for the calls only the signed-in web app makes. */
  cookie: string;
  /** A `plk_…` API token, made through `POST /api/tokens` as the Settings screen does. */
  token: string;
  page: { id: number; slug: string; title: string };
}

/**
 * The built product as a self-hoster runs it (`npm start`: the gateway with every worker, on the machine's PostgreSQL
 * and Redis, its own database and key prefix), for the tests of the Zapier, Make and n8n apps: they talk to it over
 * HTTP only, exactly as the tools would. Mail goes to an SMTP catcher (to verify the creators); webhook targets may
 * be on loopback (the test's receiver), which production refuses.
 */
export class RunningPlink {
  private n = 0;

  private constructor(
    private readonly app: NpmStart,
    private readonly env: TestEnvironment,
    private readonly smtp: SmtpCatcher,
    private readonly root: string,
    private readonly runtimeFile: string,
  ) {}

  /** `root`: the checkout (its apps must be built); by default the one this file is in. */
  static async start(root = checkoutRoot()): Promise<RunningPlink> {
    const smtp = await SmtpCatcher.start();
    const env = await createTestEnvironment({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
    });
    const runtimeFile = join(tmpdir(), `plink-apps-${randomBytes(4).toString('hex')}.json`);
    try {
      const app = await startNpmStart({ root, env, runtimeFile, healthy: true, readyWithinMs: 90_000, vars: { PLINK_DEMO_SEED: 'false' } });
      return new RunningPlink(app, env, smtp, root, runtimeFile);
    } catch (err) {
      await smtp.stop();
      await env.cleanup();
      throw err;
    }
  }

  get origin(): string {
    return this.app.origin;
  }

  /** The app's log so far (for a failed test's message). */
  log(): string {
    return this.app.log();
  }

  /** A verified creator with an API token and a page; on Pro when asked (`npm run plink -- grant-pro`, as an operator). */
  async creator(options: { pro?: boolean } = {}): Promise<PlinkCreator> {
    this.n += 1;
    const tag = `${randomBytes(3).toString('hex')}${this.n}`;
    const email = `creator.${tag}@example.com`;
    const registered = await fetch(`${this.origin}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `creator_${tag}`, email, password: 'secret-password' }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    const cookie = registered.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const { id } = (await registered.json()) as { id: number };

    const mail = await this.smtp.waitFor((m) => m.to.includes(email) && /Verify your email/.test(m.subject));
    const token = new URL(linkIn(mail, `${this.origin}/verify-email?token=`)).searchParams.get('token');
    await this.call('POST', '/api/verify-email', { token }, cookie, 200);

    if (options.pro) await this.plink(['grant-pro', email]);
    const page = (await this.call('POST', '/api/pages', { slug: `guide-${tag}`, title: `Guide ${tag}` }, cookie, 201)) as PlinkCreator['page'];
    const made = (await this.call('POST', '/api/tokens', { name: 'Automation' }, cookie, 201)) as { token: string };
    return { id, email, cookie, token: made.token, page: { id: page.id, slug: page.slug, title: page.title } };
  }

  /** A call of the signed-in web app (JSON, session cookie; no Origin, so no CSRF token is needed). */
  async call(method: string, path: string, body: unknown, cookie: string, expected: number): Promise<unknown> {
    const answer = await fetch(`${this.origin}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (answer.status !== expected) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** The operator's command line against this running app (it finds it through the launcher's runtime file). */
  private plink(args: string[]): Promise<string> {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', PLINK_RUNTIME_FILE: this.runtimeFile };
    return new Promise((resolve, reject) => {
      execFile(process.execPath, [join(this.root, 'apps/cli/dist/main.js'), ...args], { cwd: this.root, env }, (err, stdout, stderr) => {
        if (err) reject(new Error(`plink ${args.join(' ')}: ${stderr || err.message}`));
        else resolve(stdout);
      });
    });
  }

  async stop(): Promise<void> {
    await this.app.stop();
    await this.smtp.stop();
    await this.env.cleanup();
    rmSync(this.runtimeFile, { force: true });
  }
}

/** The checkout holding this file (from src/ under jest or from dist/): the folder with tools/start.mjs. */
function checkoutRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'tools/start.mjs'))) {
    if (dirname(dir) === dir) throw new Error(`no Plink checkout above ${__dirname}`);
    dir = dirname(dir);
  }
  return dir;
}
