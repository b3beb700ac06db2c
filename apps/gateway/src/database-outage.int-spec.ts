import { createServer, connect, type Server, type Socket } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { loadConfig } from '@plink/config';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { createGateway } from './bootstrap';
import { TestBrowser } from './testing/http-client';

/** A TCP proxy in front of PostgreSQL that the test can stop (every connection cut, new ones refused) and start again. */
class DatabaseProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Like a database going down: open connections are cut, new ones refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

/**
 * PostgreSQL restarting under the gateway: calls answer 503 with Retry-After (never 500) while it is away and
 * work again once it is back; a submission whose connection is terminated under its statement is written again
 * (the write is idempotent: a lead stored before its answer was lost comes back as already stored, a success).
 */
describe('a database outage', () => {
  let env: TestEnvironment;
  let proxy: DatabaseProxy;
  let app: NestFastifyApplication;
  let origin: string;
  let db: Client;
  let owner: TestBrowser;
  let page: { id: number; slug: string };

  beforeAll(async () => {
    env = await createTestEnvironment({ LEAD_RATE_LIMIT_PER_MINUTE: '0', LEAD_FLOOD_PER_HOUR: '0', LEAD_REFUSED_PER_HOUR: '0' });
    const direct = new URL(env.database.url);
    proxy = new DatabaseProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.start();
    const proxied = new URL(env.database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    app = await createGateway(loadConfig({ ...env.vars, DATABASE_URL: proxied.toString() }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    db = new Client({ connectionString: env.database.url });
    await db.connect();

    owner = new TestBrowser(origin);
    const t = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const registered = await owner.post('/api/register', { username: `db_${t}`, email: `db.${t}@example.com`, password: 'secret-123' });
    await db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    const created = await owner.post('/api/pages', { slug: `db-${t}` });
    expect(created.status).toBe(201);
    page = created.body;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await db?.end();
    await env?.cleanup();
  });

  const submit = (email: string) => new TestBrowser(origin).post(`/api/page/${page.slug}/submit`, { email, consent: true });
  const stored = async () => (await db.query<{ email: string }>('select email from leads.leads where page_id = $1', [page.id])).rows.map((r) => r.email).sort();

  it('answers 503 with Retry-After while PostgreSQL is away, and serves again once it is back', async () => {
    expect((await submit('before@example.com')).status).toBe(200);
    await proxy.stop();
    try {
      const answers = [await submit('during@example.com'), await owner.get('/api/pages'), await owner.get('/api/user')];
      for (const answer of answers) {
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: { message: UNAVAILABLE } });
        expect(answer.headers.get('retry-after')).toBe('5');
      }
    } finally {
      await proxy.start();
    }
    // Back: the visitor's second try is stored, and nothing was stored for the refused one before it.
    expect((await submit('during@example.com')).status).toBe(200);
    expect((await owner.get('/api/pages')).status).toBe(200);
    expect(await stored()).toEqual(['before@example.com', 'during@example.com']);
  }, 30_000);

  it('writes a submission again when a restart terminates the connection under its statement: 200, stored once', async () => {
    // Holds the leads table so the app's insert is under way, waiting, when its connection is terminated.
    const locker = new Client({ connectionString: env.database.url });
    await locker.connect();
    const waitingOnLock = async () =>
      Number((await db.query("select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0].count) > 0;
    try {
      await locker.query('begin');
      await locker.query('lock table leads.leads in share mode');
      const pending = submit('cut@example.com');
      await waitUntil(waitingOnLock);
      // What PostgreSQL sends every connection when it restarts (57P01 "terminating connection due to administrator command").
      await db.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
      // Written again on a fresh connection, which waits on the lock in turn.
      await waitUntil(waitingOnLock);
      await locker.query('commit');
      const answer = await pending;
      expect({ status: answer.status, success: answer.body.success }).toEqual({ status: 200, success: true });
      expect((await stored()).filter((email) => email === 'cut@example.com')).toHaveLength(1);
    } finally {
      await locker.end();
    }
  }, 30_000);
});

async function waitUntil(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
