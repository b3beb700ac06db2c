import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pool } from 'pg';
import { PlatformModule, createHttpApp, createWorkerContext } from '@plink/platform';
import { ApiTokenLookup, SessionLookup, SpaShell, serveUploads } from '@plink/http';
import { Storage } from '@plink/storage';
import { loadConfig, type AppConfig } from '@plink/config';
import { TestClient, TestSignIns, createTestEnvironment, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { PagesHttpModule, PagesReadModule, PagesWorkerModule } from '../pages.module';
import { PAGES_SCHEMA } from '../pages.schema';
import { ConversionsReader } from '../model/conversions-reader';
import { OwnerPlanChangedService } from '../use-cases/owner-plan-changed.service';

export { TestClient };

export const SPA_SHELL_HTML = '<!doctype html><html><head><title>Plink SPA</title></head><body><div id="root"></div></body></html>';

/** Conversions as the test sets them (the leads service is not part of these tests). */
export class FakeConversions extends ConversionsReader {
  readonly counts = new Map<number, number>();
  async conversionsFor(pageIds: number[]): Promise<Map<number, number>> {
    return new Map(pageIds.filter((id) => this.counts.has(id)).map((id) => [id, this.counts.get(id)!]));
  }
}

export interface Creator {
  id: number;
  username: string;
  email: string;
  client: TestClient;
}

/**
 * The pages service's HTTP side as the gateway mounts it (signed-in creators as real rows of a test
 * session lookup instead of identity, a fake ConversionsReader, an SPA shell), on a fresh database and
 * Redis prefix; `startWorker()` adds a pages worker context as `apps/pages` runs it. Identity's own
 * sign-in, and a plan change travelling from billing through identity, are tested in the gateway.
 */
export class PagesTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;
  signIns!: TestSignIns;
  readonly conversions = new FakeConversions();
  private readonly replicas = new Set<NestFastifyApplication>();
  /** The plan versions this test published per user (billing counts them; see setPremium). */
  private readonly planVersions = new Map<number, number>();

  static async start(overrides: Record<string, string> = {}): Promise<PagesTestApp> {
    const t = new PagesTestApp();
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', ...overrides });
    t.config = loadConfig(t.env.vars);
    t.signIns = await TestSignIns.open(t.env.database.url);
    t.app = await buildGatewayStandIn(t.config, t.conversions, t.signIns);
    t.origin = await listenOnLoopback(t.app);
    t.db = await openTestPool(t.env.database.url);
    return t;
  }

  /** Another gateway replica on the same database and Redis (its own in-memory caches and view counter). */
  async replica(): Promise<{ app: NestFastifyApplication; client: (headers?: Record<string, string>) => TestClient; close: () => Promise<void> }> {
    const app = await buildGatewayStandIn(this.config, this.conversions, this.signIns);
    const origin = await listenOnLoopback(app);
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

  /** Runs the pages service's worker (the view flush, the uploads queue), as `apps/pages` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext(
      { service: 'pages', workerModule: PagesWorkerModule, schema: PAGES_SCHEMA, defaultHealthPort: 0 },
      this.config,
    );
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A creator, signed in; verified unless asked otherwise; Pro when asked. */
  async creator(options: { verified?: boolean; premium?: boolean } = {}): Promise<Creator> {
    const user = await this.signIns.create(options);
    return { id: user.id, username: user.username, email: user.email, client: this.client().setCookies(user.cookie) };
  }

  /**
   * The creator's plan changes as billing publishes it: their next request carries it (identity's copy), and
   * the pages service hears of it as from billing's 'plan.changed' (pausing, caches), with the next version.
   */
  async setPremium(userId: number, premium: boolean): Promise<void> {
    await this.signIns.setPremium(userId, premium);
    const version = (this.planVersions.get(userId) ?? 0) + 1;
    this.planVersions.set(userId, version);
    await this.app.get(OwnerPlanChangedService).execute(userId, new Date(), { isPremium: premium, version });
  }

  async close(): Promise<void> {
    for (const replica of this.replicas) await replica.close().catch(() => undefined);
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.signIns?.close();
    await this.env?.cleanup();
  }
}

/** The gateway's composition for the pages service, with stand-ins for what other services provide. */
async function buildGatewayStandIn(config: AppConfig, conversions: ConversionsReader, signIns: TestSignIns): Promise<NestFastifyApplication> {
  @Global()
  @Module({
    providers: [
      { provide: ConversionsReader, useValue: conversions },
      { provide: SpaShell, useValue: { html: () => SPA_SHELL_HTML, htmlFor: () => SPA_SHELL_HTML } },
      { provide: SessionLookup, useValue: signIns },
      // The /api/v1 calls (API tokens) are tested through the gateway, where identity answers this port.
      { provide: ApiTokenLookup, useValue: { verify: () => Promise.resolve(null) } },
    ],
    exports: [ConversionsReader, SpaShell, SessionLookup, ApiTokenLookup],
  })
  class GatewayStandInModule {}

  /** What the pages worker does on identity's plan-change job, run directly (no queue worker here). */
  @Module({ imports: [PagesReadModule], providers: [OwnerPlanChangedService] })
  class OwnerPlansStandInModule {}

  @Module({
    imports: [PlatformModule.forRoot({ config, schemas: [PAGES_SCHEMA] }), GatewayStandInModule, PagesHttpModule, OwnerPlansStandInModule],
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
