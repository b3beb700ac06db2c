import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import sharp from 'sharp';
import { SESSION_COOKIE } from '@plink/identity';
import { loadConfig } from '@plink/config';
import { FakeStripe, SmtpCatcher, adminDatabaseUrl, createTestEnvironment, freePort, linkIn, type TestEnvironment, pollUntil } from '@plink/testing';
import { createGateway } from './bootstrap';
import { TestBrowser } from './testing/http-client';

/**
 * Services own their data, and the database says so: each worker app runs here under a PostgreSQL role that
 * may use only its own service's schema and `platform` (the outbox), as an operator gives each worker its own
 * role. For each worker, on a fresh database migrated by `plink migrate` (the migration Job's command), the
 * built app (`node apps/<service>/dist/main.js`) starts with MIGRATE_ON_START=false, becomes ready, and does
 * real jobs of its queues, recorded as the product records them (the gateway's API, the operator's command,
 * or a row in the outbox); the test checks what the jobs did, and that the worker never met a permission
 * error (a read of another service's tables) nor an entity of another schema.
 *
 * A worker that still reads another service's tables fails here, naming the table it reached for.
 */

const ROOT = join(__dirname, '../../..');
const SERVICES = ['identity', 'pages', 'leads', 'billing', 'notifications'] as const;
type Service = (typeof SERVICES)[number];
/** Every schema of a Plink database; `public` is PostgreSQL's own, which no Plink process needs. */
const ALL_SCHEMAS = ['platform', ...SERVICES, 'public'];

/** What a worker must never log: PostgreSQL refusing a table or schema, or the ORM refusing a foreign entity. */
const FORBIDDEN = [/permission denied/i, /which this process does not open/];

interface Worker {
  service: Service;
  role: string;
  port: number;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

interface Creator {
  id: number;
  email: string;
  browser: TestBrowser;
}

/** A child process's environment: this one's, without Jest's marker (which silences the logger before it is set up). */
function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
  delete env.JEST_WORKER_ID;
  return env;
}

let n = 0;
const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

const eventually = <T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000) => pollUntil(probe, ok, timeoutMs, 200);

/**
 * One worker's world: its own database (migrated by `plink migrate`) and Redis prefix, the gateway in this
 * process (every schema, no processors: it records the jobs, as in production), the worker(s) as child
 * processes, each under a role of its own.
 */
class World {
  env!: TestEnvironment;
  db!: Client;
  gateway!: NestFastifyApplication;
  origin = '';
  smtp?: SmtpCatcher;
  stripe?: FakeStripe;
  readonly workers: Worker[] = [];
  private readonly roles: string[] = [];

  private uploadsDir = '';

  async start(options: { smtp?: boolean; stripe?: boolean }): Promise<void> {
    this.uploadsDir = mkdtempSync(join(tmpdir(), 'plink-isolation-'));
    if (options.smtp) this.smtp = await SmtpCatcher.start();
    if (options.stripe) this.stripe = await FakeStripe.start();
    const stripe = this.stripe;
    this.env = await createTestEnvironment({
      UPLOADS_DIR: this.uploadsDir,
      ...(stripe
        ? { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_PRICE_ID: stripe.priceId, STRIPE_API_URL: stripe.url }
        : {}),
      LOG_LEVEL: 'info',
      LEAD_RATE_LIMIT_PER_MINUTE: '0', LEAD_FLOOD_PER_HOUR: '0', LEAD_REFUSED_PER_HOUR: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      ...(this.smtp ? { SMTP_URL: this.smtp.url } : {}),
    });
    this.db = new Client({ connectionString: this.env.database.url });
    await this.db.connect();

    // The migration Job's command migrates every schema; nothing else may migrate afterwards.
    const migrated = await this.cli(['migrate']);
    expect(migrated).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Applied \d+ migration\(s\)/) });
    this.gateway = await createGateway(loadConfig({ ...this.env.vars, LOG_LEVEL: 'silent', PLINK_WORKERS: 'none', MIGRATE_ON_START: 'false' }));
    await this.gateway.listen({ port: 0, host: '127.0.0.1' });
    this.origin = (await this.gateway.getUrl()).replace('[::1]', '127.0.0.1');
    this.stripe?.setWebhookUrl(`${this.origin}/api/webhooks/stripe`);
  }

  /** `npm run plink -- …` as the operator runs it (the database's owner, every schema). */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [join(ROOT, 'apps/cli/dist/main.js'), ...args], {
      cwd: ROOT,
      env: childEnv({ ...this.env.vars, LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  }

  /**
   * A login role that may use `service`'s schema and `platform` only: USAGE on both schemas and the data rights
   * on their tables and sequences, none on the other services' schemas, and none on `public` (whose rights
   * every role inherits from PUBLIC until they are taken from PUBLIC).
   */
  private async limitedRole(service: Service): Promise<string> {
    const role = `plink_${service}_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: adminDatabaseUrl() });
    await admin.connect();
    try {
      await admin.query(`create role "${role}" login`);
    } finally {
      await admin.end();
    }
    this.roles.push(role);
    const own = ['platform', service];
    await this.db.query(`grant connect on database "${this.env.database.name}" to "${role}"`);
    await this.db.query('revoke all on schema public from public');
    for (const schema of ALL_SCHEMAS) {
      if (own.includes(schema)) {
        // The grants deploy/README.md gives each worker's role.
        await this.db.query(`grant usage on schema "${schema}" to "${role}"`);
        await this.db.query(`grant select, insert, update, delete on all tables in schema "${schema}" to "${role}"`);
        await this.db.query(`grant usage, select, update on all sequences in schema "${schema}" to "${role}"`);
      } else {
        await this.db.query(`revoke all on schema "${schema}" from "${role}"`);
        await this.db.query(`revoke all on all tables in schema "${schema}" from "${role}"`);
        await this.db.query(`revoke all on all sequences in schema "${schema}" from "${role}"`);
      }
    }
    return role;
  }

  /** Starts the built worker app under its own limited role and waits for /health/ready. */
  async startWorker(service: Service): Promise<Worker> {
    const role = await this.limitedRole(service);
    const url = new URL(this.env.database.url);
    url.username = role;
    url.password = '';
    const port = await freePort();
    const output: string[] = [];
    const child = spawn(process.execPath, [join(ROOT, `apps/${service}/dist/main.js`)], {
      cwd: ROOT,
      env: childEnv({
        ...this.env.vars,
        DATABASE_URL: url.toString(),
        HEALTH_PORT: String(port),
        // The role may not create schemas or tables: the migration Job has run, the app only checks it.
        MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => output.push(String(d)));
    child.stderr!.on('data', (d) => output.push(String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const worker: Worker = { service, role, port, child, output, exited };
    this.workers.push(worker);

    const ready = await eventually(
      () =>
        fetch(`http://127.0.0.1:${port}/health/ready`)
          .then((r) => r.status)
          .catch(() => 0),
      (status) => status === 200 || child.exitCode !== null,
      30_000,
    );
    if (ready !== 200) throw new Error(`the ${service} worker did not become ready (${ready})\n${this.tail(worker)}`);
    return worker;
  }

  worker(service: Service): Worker {
    return this.workers.find((w) => w.service === service)!;
  }

  tail(worker: Worker): string {
    return `--- ${worker.service} worker output (end) ---\n${worker.output.join('').slice(-3000)}`;
  }

  /** What a worker logged about reads outside its schemas: the job and the error's message, once each. */
  forbiddenReads(worker: Worker): string[] {
    const found = new Set<string>();
    for (const line of worker.output.join('').split('\n')) {
      if (!FORBIDDEN.some((re) => re.test(line))) continue;
      let entry: { job?: string; msg?: string; err?: { message?: string } } = {};
      try {
        entry = JSON.parse(line);
      } catch {
        /* not a log line of pino's */
      }
      found.add(entry.err?.message ? `${entry.job ?? entry.msg}: ${entry.err.message}` : line.slice(0, 500));
    }
    return [...found];
  }

  browser(): TestBrowser {
    return new TestBrowser(this.origin);
  }

  /** A registered creator whose address is verified (set in the database, as the gateway's tests do). */
  async creator(): Promise<Creator> {
    const browser = this.browser();
    const t = tag();
    const email = `creator.${t}@example.com`;
    const registered = await browser.post('/api/register', { username: `creator_${t}`, email, password: 'creator-secret' });
    expect(registered.status).toBe(201);
    await this.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    return { id: registered.body.id, email, browser };
  }

  async createPage(owner: Creator, fields: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
    const res = await owner.browser.post('/api/pages', { slug: `page-${tag()}`, title: 'A landing page', ...fields });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return res.body;
  }

  /** An image uploaded by the creator as the editor does; answers its URL. */
  async uploadImage(owner: Creator): Promise<string> {
    const form = new FormData();
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#228866' } }).jpeg().toBuffer();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${this.origin}/api/upload-image?type=main`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${owner.browser.cookie(SESSION_COOKIE)}` },
      body: form,
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { imageUrl: string }).imageUrl;
  }

  /** A job recorded in the outbox, as a service's `Outbox.record` writes it; a running process relays it. */
  async record(queue: string, jobName: string, payload: Record<string, unknown>): Promise<void> {
    await this.db.query('insert into platform.outbox (id, queue, job_name, payload, correlation_id) values (gen_random_uuid(), $1, $2, $3, $4)', [
      queue,
      jobName,
      JSON.stringify(payload),
      `isolation-${tag()}`,
    ]);
  }

  async stop(): Promise<void> {
    for (const w of this.workers) {
      if (w.child.exitCode === null) w.child.kill('SIGTERM');
      const stopped = await Promise.race([w.exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
      if (stopped === 'timeout') w.child.kill('SIGKILL');
    }
    await this.gateway?.close();
    await this.db?.end();
    await this.smtp?.stop();
    await this.stripe?.close();
    // Dropping the database takes the grants in it along; the roles are the cluster's and go after.
    await this.env?.cleanup();
    if (this.uploadsDir) rmSync(this.uploadsDir, { recursive: true, force: true });
    if (this.roles.length > 0) {
      const admin = new Client({ connectionString: adminDatabaseUrl() });
      await admin.connect();
      try {
        for (const role of this.roles) await admin.query(`drop role if exists "${role}"`);
      } finally {
        await admin.end();
      }
    }
  }
}

/**
 * Per worker: the workers to run (the one under test first; billing's plan change goes to identity, pages and
 * leads, and the operator's command returns once all three have it), and the jobs it must do with what they
 * change.
 */
const SCENARIOS: Record<Service, { run: Service[]; smtp?: boolean; stripe?: boolean; jobs: string; exercise(world: World): Promise<void> }> = {
  identity: {
    run: ['identity', 'pages', 'leads'],
    jobs: "copies billing's plan change onto the user ('plan.changed', published by the operator's grant-pro)",
    async exercise(world) {
      const ann = await world.creator();
      expect(await world.cli(['grant-pro', ann.email])).toMatchObject({ code: 0, stdout: expect.stringContaining('Granted Pro to') });
      const premium = async () => (await world.db.query('select is_premium from identity.users where id = $1', [ann.id])).rows[0].is_premium;
      expect(await eventually(premium, (p) => p === true)).toBe(true);
      expect((await ann.browser.get('/api/user')).body).toMatchObject({ id: ann.id, isPremium: true });
    },
  },
  pages: {
    run: ['pages', 'identity', 'leads'],
    jobs: "flushes counted views into the page ('pages.flush-views'), removes an image the page no longer shows ('pages.delete-uploads') and pauses all but the oldest page of an owner whose Pro ended ('plan.changed')",
    async exercise(world) {
      const ann = await world.creator();
      const imageUrl = await world.uploadImage(ann);
      const first = await world.createPage(ann, { imageUrl });
      for (let i = 0; i < 3; i++) expect((await fetch(`${world.origin}/${first.slug}`)).status).toBe(200);
      const views = async () => Number((await world.db.query('select views from pages.pages where id = $1', [first.id])).rows[0].views);
      expect(await eventually(views, (v) => v === 3)).toBe(3);

      // The image cleared from the page: the uploads queue (run by the pages worker) removes it from the store.
      expect((await fetch(world.origin + imageUrl)).status).toBe(200);
      expect((await ann.browser.request('PUT', `/api/pages/${first.id}`, { imageUrl: null })).status).toBe(200);
      const served = async () => {
        const response = await fetch(world.origin + imageUrl);
        await response.arrayBuffer();
        return response.status;
      };
      expect(await eventually(served, (status) => status === 404)).toBe(404);

      // Pro: a second page; Pro ends: the second is paused, the oldest stays live.
      expect(await world.cli(['grant-pro', ann.email])).toMatchObject({ code: 0 });
      const second = await eventually(
        () => ann.browser.post('/api/pages', { slug: `page-${tag()}`, title: 'Second page' }),
        (res) => res.status === 201,
      );
      expect(second.status).toBe(201);
      expect(await world.cli(['revoke-pro', ann.email])).toMatchObject({ code: 0 });
      const paused = async () =>
        Object.fromEntries(((await ann.browser.get('/api/pages')).body as { id: number; paused: boolean }[]).map((p) => [p.id, p.paused]));
      expect(await eventually(paused, (p) => p[second.body.id] === true)).toEqual({ [first.id]: false, [second.body.id]: true });
    },
  },
  leads: {
    run: ['leads'],
    jobs: "removes a deleted page's leads ('leads.delete-for-page', recorded when the page leaves the Trash)",
    async exercise(world) {
      const ann = await world.creator();
      const page = await world.createPage(ann);
      expect((await world.browser().post(`/api/page/${page.slug}/submit`, { email: 'visitor@example.org', consent: true })).status).toBe(200);
      const leads = async () => Number((await world.db.query('select count(*) from leads.leads where page_id = $1', [page.id])).rows[0].count);
      expect(await leads()).toBe(1);
      expect((await ann.browser.request('DELETE', `/api/pages/${page.id}`)).status).toBe(200);
      expect((await ann.browser.request('DELETE', `/api/trash/${page.id}`)).status).toBe(200);
      expect(await eventually(leads, (count) => count === 0)).toBe(0);
    },
  },
  billing: {
    run: ['billing'],
    stripe: true,
    jobs: "applies Stripe's events to the plan ('billing.stripe-event', recorded by the webhook intake) and ends an operator's grant whose time is up ('billing.expire-grants')",
    async exercise(world) {
      const account = async (userId: number) =>
        (await world.db.query('select status, is_premium from billing.accounts where user_id = $1', [userId])).rows[0] as { status: string; is_premium: boolean } | undefined;

      // Checkout completed on Stripe: its events reach the webhook; only the worker turns them into the plan.
      const bea = await world.creator();
      const checkout = await bea.browser.post('/api/create-subscription');
      expect(checkout.status).toBe(200);
      await world.stripe!.completeCheckout(/\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(checkout.body.url)![1]);
      expect(await eventually(() => account(bea.id), (a) => a?.is_premium === true)).toEqual({ status: 'trialing', is_premium: true });
      const unprocessed = async () => Number((await world.db.query('select count(*) from billing.stripe_events where processed_at is null')).rows[0].count);
      expect(Number((await world.db.query('select count(*) from billing.stripe_events')).rows[0].count)).toBeGreaterThan(0);
      expect(await eventually(unprocessed, (count) => count === 0)).toBe(0);

      // An operator's grant of a day, whose day has passed; the repeatable job comes every 10 minutes, so one is recorded now.
      const ann = await world.creator();
      // Identity's worker does not run here, so the user's copy of the plan cannot follow: the command says the
      // change is queued (exit 3) instead of waiting for it.
      expect(await world.cli(['grant-pro', ann.email, '--days', '1', '--wait', '0'])).toMatchObject({ code: 3 });
      await world.db.query("update billing.accounts set operator_expires_at = now() - interval '1 minute' where user_id = $1", [ann.id]);
      await world.record('billing', 'billing.expire-grants', { v: 1 });
      expect(await eventually(() => account(ann.id), (a) => a?.is_premium === false)).toMatchObject({ is_premium: false });
    },
  },
  notifications: {
    run: ['notifications'],
    smtp: true,
    jobs: "sends the verification e-mail ('email.verification') and a visitor's file link ('email.file-delivery')",
    async exercise(world) {
      const smtp = world.smtp!;
      // Both jobs are recorded before either e-mail is awaited, so the worker's log tells about both.
      const browser = world.browser();
      const email = `new.${tag()}@example.com`;
      expect((await browser.post('/api/register', { username: `new_${tag()}`, email, password: 'new-secret' })).status).toBe(201);
      const ann = await world.creator();
      const page = await world.createPage(ann, { title: 'The photo guide', fileUrl: 'https://files.example/guide.pdf' });
      expect((await world.browser().post(`/api/page/${page.slug}/submit`, { email: 'reader@example.org', consent: true })).status).toBe(200);

      const [verification, delivery] = await Promise.all([
        smtp.waitFor((m) => m.to.includes(email), 30_000),
        smtp.waitFor((m) => m.to.includes('reader@example.org'), 30_000),
      ]);
      const token = new URL(linkIn(verification, 'http://plink.test/verify-email?token=')).searchParams.get('token');
      expect((await browser.post('/api/verify-email', { token })).body).toMatchObject({ success: true });
      expect(delivery.subject).toBe('Your download: The photo guide');
      expect(delivery.text).toContain('https://files.example/guide.pdf');
    },
  },
};

describe.each(SERVICES)('the %s worker, under a database role limited to its own schema and platform', (service) => {
  const scenario = SCENARIOS[service];
  const world = new World();

  beforeAll(async () => {
    await world.start({ smtp: scenario.smtp, stripe: scenario.stripe });
    // Together: each waits mostly on its own start (loading, connecting), not on the others.
    await Promise.all(scenario.run.map((s) => world.startWorker(s)));
  }, 90_000);

  afterAll(() => world.stop(), 60_000);

  it(`${scenario.jobs}`, async () => {
    try {
      await scenario.exercise(world);
    } catch (err) {
      const logs = scenario.run
        .map((s) => `--- ${s} worker, reads outside its schemas: ${JSON.stringify(world.forbiddenReads(world.worker(s)), null, 2)}\n${world.tail(world.worker(s))}`)
        .join('\n');
      throw new Error(`${(err as Error).message}\n${logs}`, { cause: err });
    }
  }, 120_000);

  it('logged no permission error and asked for no entity of another schema', () => {
    for (const s of scenario.run) {
      expect({ worker: s, reads: world.forbiddenReads(world.worker(s)) }).toEqual({ worker: s, reads: [] });
      expect(world.worker(s).child.exitCode).toBeNull();
    }
  });
});
