import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { IDENTITY_SCHEMA, IdentityHttpModule } from '@plink/identity';
import { PlatformModule, SpaShell, Storage, createHttpApp, createWorkerContext, loadConfig, serveUploads, type AppConfig } from '@plink/platform';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { PagesHttpModule, PagesWorkerModule } from '../pages.module';
import { PAGES_SCHEMA } from '../pages.schema';
import { ConversionsReader } from '../pages/conversions-reader';

export const SPA_SHELL_HTML = '<!doctype html><html><head><title>Plink SPA</title></head><body><div id="root"></div></body></html>';

/** Conversions as the test sets them (the leads service is not part of these tests). */
export class FakeConversions extends ConversionsReader {
  readonly counts = new Map<number, number>();
  async conversionsFor(pageIds: number[]): Promise<Map<number, number>> {
    return new Map(pageIds.filter((id) => this.counts.has(id)).map((id) => [id, this.counts.get(id)!]));
  }
}

/** A tiny browser stand-in: fetch with a cookie jar, JSON in and out. */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly origin: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** The Cookie header this client sends (for hand-made requests). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any; text: string; headers: Headers }> {
    const all: Record<string, string> = { ...this.defaultHeaders, ...headers };
    if (this.cookies.size > 0) all.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const init: RequestInit = { method, headers: all };
    if (body instanceof FormData) {
      init.body = body; // multipart: fetch writes the content type with its boundary
    } else if (body !== undefined) {
      all['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(this.origin + path, init);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value) this.cookies.set(name.trim(), value);
      else this.cookies.delete(name.trim());
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }
}

export interface Creator {
  id: number;
  username: string;
  email: string;
  client: TestClient;
}

/**
 * The pages service's HTTP side as the gateway mounts it (identity's calls for signing in, a fake
 * ConversionsReader, an SPA shell), on a fresh database and Redis prefix; `startWorker()` adds a pages
 * worker context as `apps/pages` runs it.
 */
export class PagesTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Client;
  readonly conversions = new FakeConversions();
  private readonly replicas = new Set<NestFastifyApplication>();
  private n = 0;

  static async start(overrides: Record<string, string> = {}): Promise<PagesTestApp> {
    const t = new PagesTestApp();
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', ...overrides });
    t.config = loadConfig(t.env.vars);
    t.app = await buildGatewayStandIn(t.config, t.conversions);
    t.origin = await listen(t.app);
    t.db = new Client({ connectionString: t.env.database.url });
    await t.db.connect();
    return t;
  }

  /** Another gateway replica on the same database and Redis (its own in-memory caches and view counter). */
  async replica(): Promise<{ app: NestFastifyApplication; client: (headers?: Record<string, string>) => TestClient; close: () => Promise<void> }> {
    const app = await buildGatewayStandIn(this.config, this.conversions);
    const origin = await listen(app);
    this.replicas.add(app);
    return {
      app,
      client: (headers = {}) => new TestClient(origin, headers),
      close: async () => {
        this.replicas.delete(app);
        await app.close();
      },
    };
  }

  /** Runs the pages service's worker (the view flush), as `apps/pages` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext(
      { service: 'pages', workerModule: PagesWorkerModule, schemas: [PAGES_SCHEMA], defaultHealthPort: 0 },
      this.config,
    );
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A registered creator, signed in; verified unless asked otherwise; Pro when asked. */
  async creator(options: { verified?: boolean; premium?: boolean } = {}): Promise<Creator> {
    this.n += 1;
    const tag = `${Date.now().toString(36)}${this.n}`;
    const who = { username: `creator_${tag}`, email: `creator.${tag}@example.com`, password: 'secret-password' };
    const client = this.client();
    const registered = await client.post('/api/register', who);
    if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
    await this.db.query('update identity.users set is_verified = $2, is_premium = $3 where id = $1', [
      registered.body.id,
      options.verified ?? true,
      options.premium ?? false,
    ]);
    return { id: registered.body.id, username: who.username, email: who.email, client };
  }

  async setPremium(userId: number, premium: boolean): Promise<void> {
    await this.db.query('update identity.users set is_premium = $2 where id = $1', [userId, premium]);
  }

  async close(): Promise<void> {
    for (const replica of this.replicas) await replica.close().catch(() => undefined);
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.env?.cleanup();
  }
}

/** The gateway's composition for the pages service, with stand-ins for what other services provide. */
async function buildGatewayStandIn(config: AppConfig, conversions: ConversionsReader): Promise<NestFastifyApplication> {
  @Global()
  @Module({
    providers: [
      { provide: ConversionsReader, useValue: conversions },
      { provide: SpaShell, useValue: { html: () => SPA_SHELL_HTML, htmlFor: () => SPA_SHELL_HTML } },
    ],
    exports: [ConversionsReader, SpaShell],
  })
  class GatewayStandInModule {}

  @Module({
    imports: [
      PlatformModule.forRoot({ config, schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA] }),
      GatewayStandInModule,
      IdentityHttpModule,
      PagesHttpModule,
    ],
  })
  class TestGatewayModule {}

  const app = await createHttpApp(TestGatewayModule, config);
  // As the gateway: uploads served through the Storage port, and (serveSpa) the lowest-priority route
  // answering the SPA for every other GET.
  serveUploads(app.getHttpAdapter().getInstance(), app.get(Storage));
  app
    .getHttpAdapter()
    .getInstance()
    .get('/*', (_request, reply) => {
      void reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(`${SPA_SHELL_HTML}<!--fallback-->`);
    });
  await app.init();
  return app;
}

async function listen(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

/** Polls until `read` gives `expected` (or the time is up), and answers the last value with the time it took. */
export async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let value = await read();
  while (value !== expected && Date.now() - started < timeoutMs) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return { value, ms: Date.now() - started };
}
