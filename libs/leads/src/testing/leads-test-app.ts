import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { QueueName, type DeliveryEmailFacts, type EventPayload, type PageFacts, type PublicPageDto } from '@plink/contracts';
import { makePublicPageDto, recordedJobs } from '@plink/contracts/testing';
import { PlatformModule, createHttpApp, createWorkerContext } from '@plink/platform';
import { JobQueue, Outbox } from '@plink/queue';
import { ApiTokenLookup, SessionLookup } from '@plink/http';
import { loadConfig, type AppConfig } from '@plink/config';
import { FormTokens } from '@plink/crypto';
import { withOrmContext } from '@plink/data';
import { TestClient, TestSignIns, createTestEnvironment, eventually, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { LeadsHttpModule, LeadsWorkerModule } from '../leads.module';
import { LEADS_SCHEMA } from '../leads.schema';
import { ApplyOwnerPlanService } from '../page-facts/apply-page-change';
import { PageFactsChanges } from '../page-facts/page-facts-changes';
import { OwnerPlansRepository } from '../page-facts/page-facts.repository';
import { OwnedPagesReader, PageFactsFallback, PageVisitsReader, type OwnedPage, type PageVisits } from '../page-facts/ports';

export { TestClient };

export interface Creator {
  id: number;
  username: string;
  client: TestClient;
}

/** A page as the stand-in pages service keeps it: what its 'page.changed' carries, and its views. */
export interface StandInPage {
  id: number;
  slug: string;
  title: string;
  ownerId: number;
  ownerUsername: string;
  paused: boolean;
  fileUrl: string | null;
  webhookUrl: string | null;
  /** The delivery e-mail as the pages service would resolve it (absent: facts from before it). */
  deliveryEmail?: DeliveryEmailFacts;
  public: PublicPageDto;
  views: number;
  deleted: boolean;
}

/** What a test may set of a page (the public fields as a visitor's page shows them, plus the owner's file and webhook). */
export type PageFields = Partial<PublicPageDto> & {
  fileUrl?: string | null;
  webhookUrl?: string | null;
  paused?: boolean;
  deliveryEmail?: DeliveryEmailFacts;
};

/** The answer of a submission on a page with the default thank-you texts. */
export const okAnswer = {
  status: 200,
  body: {
    success: true,
    thankYouHeadline: 'Thank you!',
    thankYouSubtext: 'Check your email for your download link.',
    thankYouButton: null,
    redirectUrl: null,
  },
};

/**
 * The pages service as the leads service meets it: its pages (kept here, in memory), each change published
 * as its 'page.changed' through the outbox in a transaction of its own, as pages does (so this process
 * applies it at once, and the relayed message reaches the leads queue), a deleted page's
 * 'leads.delete-for-page', and the two ports the gateway binds to pages (OwnedPagesReader, PageFactsFallback).
 */
export class StandInPages {
  private readonly pages = new Map<number, StandInPage>();
  private nextId = 1000;
  private lastVersion = 0;
  app?: NestFastifyApplication;

  readonly ownedPages: OwnedPagesReader = {
    findOwned: async (pageId, userId): Promise<OwnedPage | null> => {
      const page = this.pages.get(pageId);
      return page && !page.deleted && page.ownerId === userId ? { id: page.id, slug: page.slug, title: page.title, views: page.views } : null;
    },
  };

  /** The views the stand-in pages service counted, per page (set by a test), read for a range as pages does. */
  readonly counted = new Map<number, PageVisits>();
  readonly visitsReader: PageVisitsReader = {
    visits: async (pageId, from, to) => {
      const all = this.counted.get(pageId) ?? { days: [], sources: [] };
      return { days: all.days.filter((d) => d.day >= from && d.day <= to), sources: all.sources };
    },
  };

  readonly fallback: PageFactsFallback = {
    findBySlug: async (slug) => {
      const page = [...this.pages.values()].find((p) => !p.deleted && p.slug.toLowerCase() === slug.toLowerCase());
      return page ? { pageId: page.id, facts: factsOf(page) } : null;
    },
  };

  /** The id of the (live or deleted) page with this slug, any case. */
  idOf(slug: string): number | undefined {
    return [...this.pages.values()].find((p) => p.slug.toLowerCase() === slug.toLowerCase())?.id;
  }

  /** A new page of the owner, published as pages publishes it; without `announce`, the leads service never hears of it (a page older than its read model). */
  async create(owner: { id: number; username: string }, fields: PageFields = {}, options: { announce?: boolean } = {}): Promise<StandInPage> {
    this.nextId += 1;
    const slug = fields.slug ?? `page-${this.nextId}-${Date.now().toString(36)}`;
    const page: StandInPage = {
      id: this.nextId,
      slug,
      title: 'A landing page',
      ownerId: owner.id,
      ownerUsername: owner.username,
      paused: false,
      fileUrl: null,
      webhookUrl: null,
      public: makePublicPageDto({ slug, title: 'A landing page' }),
      views: 0,
      deleted: false,
    };
    this.assign(page, fields);
    this.pages.set(page.id, page);
    if (options.announce !== false) await this.publish({ v: 1, pageId: page.id, version: this.version(), formerSlug: null, page: factsOf(page) });
    return page;
  }

  /** An edit of the page (slug, texts, file, webhook, paused), published as pages does. */
  async update(page: StandInPage, fields: PageFields): Promise<void> {
    const formerSlug = fields.slug && fields.slug.toLowerCase() !== page.slug.toLowerCase() ? page.slug : null;
    this.assign(page, fields);
    await this.publish({ v: 1, pageId: page.id, version: this.version(), formerSlug, page: factsOf(page) });
  }

  /** The page deleted: its 'page.changed' (page: null) and the job that removes its leads, in one transaction. */
  async delete(page: StandInPage): Promise<void> {
    page.deleted = true;
    await this.inTransaction((outbox, em) => {
      outbox.record(em, 'leads.delete-for-page', { v: 1, pageId: page.id });
      outbox.publish(em, 'page.changed', { v: 1, pageId: page.id, version: this.version(), formerSlug: null, page: null });
    });
  }

  /** The facts a 'page.changed' about the page carries now. */
  factsOf(page: StandInPage): PageFacts {
    return factsOf(page);
  }

  private assign(page: StandInPage, fields: PageFields): void {
    const { fileUrl, webhookUrl, paused, deliveryEmail, ...shown } = fields;
    if (deliveryEmail !== undefined) page.deliveryEmail = deliveryEmail;
    if (fileUrl !== undefined) page.fileUrl = fileUrl;
    if (webhookUrl !== undefined) page.webhookUrl = webhookUrl;
    if (paused !== undefined) page.paused = paused;
    page.public = { ...page.public, ...shown };
    page.slug = page.public.slug;
    page.title = page.public.title;
  }

  /** A change's version: ms since the epoch, as pages' changeVersion, rising with every change. */
  private version(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    return this.lastVersion;
  }

  private publish(payload: EventPayload<'page.changed'>): Promise<void> {
    return this.inTransaction((outbox, em) => outbox.publish(em, 'page.changed', payload));
  }

  private async inTransaction(write: (outbox: Outbox, em: Parameters<Outbox['record']>[0]) => void): Promise<void> {
    const app = this.app!;
    const orm = app.get<MikroORM>(MikroORM);
    const outbox = app.get(Outbox);
    await withOrmContext(orm, () => orm.em.transactional(async (em) => write(outbox, em)));
  }
}

function factsOf(page: StandInPage): PageFacts {
  return {
    slug: page.slug,
    ownerId: page.ownerId,
    ownerUsername: page.ownerUsername,
    paused: page.paused,
    fileUrl: page.fileUrl,
    webhookOn: !!page.webhookUrl,
    public: page.public as unknown as Record<string, unknown>,
    ...(page.deliveryEmail && { deliveryEmail: page.deliveryEmail }),
  };
}

/**
 * The leads service's HTTP side as the gateway mounts it (submissions, the form without JavaScript, stats and
 * export), on a fresh database and Redis prefix, with signed-in creators from TestSignIns instead of identity,
 * the pages service as {@link StandInPages}, and plans as billing's 'plan.changed' delivers them;
 * `startWorker()` adds the leads worker as `apps/leads` runs it. Submissions from one address are not limited
 * (LEAD_RATE_LIMIT_PER_MINUTE=0) unless a test asks.
 */
export class LeadsTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;
  signIns!: TestSignIns;
  readonly pages = new StandInPages();
  /** The plan versions billing published per user in this test (see setPro). */
  private readonly planVersions = new Map<number, number>();

  static async start(overrides: Record<string, string> = {}): Promise<LeadsTestApp> {
    const t = new LeadsTestApp();
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', LEAD_RATE_LIMIT_PER_MINUTE: '0', LEAD_FLOOD_PER_HOUR: '0', LEAD_REFUSED_PER_HOUR: '0', DATABASE_POOL_MAX: '10', ...overrides });
    t.config = loadConfig(t.env.vars);
    t.signIns = await TestSignIns.open(t.env.database.url);

    @Global()
    @Module({
      providers: [
        { provide: SessionLookup, useValue: t.signIns },
        // The /api/v1 calls (API tokens) are tested through the gateway, where identity answers this port.
        { provide: ApiTokenLookup, useValue: { verify: () => Promise.resolve(null) } },
        { provide: OwnedPagesReader, useValue: t.pages.ownedPages },
        { provide: PageFactsFallback, useValue: t.pages.fallback },
        { provide: PageVisitsReader, useValue: t.pages.visitsReader },
      ],
      exports: [SessionLookup, ApiTokenLookup, OwnedPagesReader, PageFactsFallback, PageVisitsReader],
    })
    class GatewayStandInModule {}

    @Module({ imports: [PlatformModule.forRoot({ config: t.config, schemas: [LEADS_SCHEMA] }), GatewayStandInModule, LeadsHttpModule] })
    class TestGatewayModule {}

    t.app = await createHttpApp(TestGatewayModule, t.config);
    await t.app.init();
    t.origin = await listenOnLoopback(t.app);
    t.pages.app = t.app;
    t.db = await openTestPool(t.env.database.url);
    return t;
  }

  /** Runs the leads service's worker (its queue: page and plan changes, removing a deleted page's leads), as `apps/leads` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext({ service: 'leads', workerModule: LeadsWorkerModule, schema: LEADS_SCHEMA, defaultHealthPort: 0 }, this.config);
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A signed-in creator; Pro (as billing's 'plan.changed' tells the leads service) unless asked for Free. */
  async creator(plan: 'free' | 'pro' = 'pro'): Promise<Creator> {
    const user = await this.signIns.create({ premium: plan === 'pro' });
    if (plan === 'pro') await this.setPro(user.id, true);
    return { id: user.id, username: user.username, client: this.client().setCookies(user.cookie) };
  }

  /** A page of the creator, as the pages service publishes it. */
  createPage(owner: Creator, fields: PageFields = {}, options: { announce?: boolean } = {}): Promise<StandInPage> {
    return this.pages.create(owner, fields, options);
  }

  /**
   * The creator's plan changes as billing publishes it: the leads service hears of it as from billing's
   * 'plan.changed' (its handler run directly, with the user's next version), and their next request carries it.
   */
  async setPro(userId: number, isPremium: boolean): Promise<void> {
    await this.signIns.setPremium(userId, isPremium);
    const version = (this.planVersions.get(userId) ?? 0) + 1;
    this.planVersions.set(userId, version);
    const orm = this.app.get<MikroORM>(MikroORM);
    const apply = new ApplyOwnerPlanService(this.app.get(OwnerPlansRepository, { strict: false }), this.app.get(PageFactsChanges, { strict: false }));
    await withOrmContext(orm, () =>
      apply.execute({
        v: 1,
        userId,
        isPremium,
        planStatus: isPremium ? 'active' : 'canceled',
        periodEnd: null,
        stripeCustomerId: null,
        stripeSubscriptionId: null,
        version,
        changedAt: new Date().toISOString(),
      }),
    );
  }

  /**
   * A genuine form token of the page, issued `ageMs` ago (default 5 s, past the 2 s wait): what the page's form
   * carried for a visitor who loaded it that long ago, signed with this test's secret.
   */
  formToken(pageId: number, ageMs = 5_000): string {
    return new FormTokens(this.config.sessionSecret).issue(pageId, Date.now() - ageMs);
  }

  /** The body with the form token of the slug's page, unless the test sets `formToken` (`undefined`: none sent). */
  private withToken<T>(slug: string, body: T): T {
    if (!body || typeof body !== 'object' || Array.isArray(body) || 'formToken' in body) return body;
    const pageId = this.pages.idOf(slug);
    return pageId === undefined ? body : { ...body, formToken: this.formToken(pageId) };
  }

  /** A visitor's JSON submission as the page's script sends it (with the page's form token; see withToken). */
  submit(slug: string, body: unknown, client = this.client()) {
    return client.post(`/api/page/${slug}/submit`, this.withToken(slug, body));
  }

  /** The page's form posted as a browser without JavaScript does (with the page's form token; see withToken). */
  formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const slug = path.split('?')[0].split('/').pop() ?? '';
    return fetch(this.origin + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(this.withToken(slug, fields)).toString(),
    });
  }

  async leadCount(pageId: number): Promise<number> {
    return Number((await this.db.query('select count(*) from leads.leads where page_id = $1', [pageId])).rows[0].count);
  }

  async conversions(pageId: number): Promise<number> {
    return Number((await this.db.query('select coalesce(sum(conversions), 0) as conversions from leads.page_counters where page_id = $1', [pageId])).rows[0].conversions);
  }

  async leadId(pageId: number, email: string): Promise<number> {
    return Number((await this.db.query('select id from leads.leads where page_id = $1 and email_lower = lower($2)', [pageId, email])).rows[0]?.id);
  }

  /** Waits until every recorded job and event has left the outbox for its queue. */
  async outboxDrained(): Promise<void> {
    await eventually(async () => Number((await this.db.query('select count(*) from platform.outbox')).rows[0].count) === 0);
  }

  queue(name: QueueName) {
    return this.app.get(JobQueue).queue(name);
  }

  /**
   * The jobs of that name on a queue, whatever their state (the consumer of another service's queue does not run
   * here); those the relay grouped, each on its own (see recordedJobs).
   */
  async jobsOf(name: QueueName, jobName: string) {
    return recordedJobs(await this.queue(name).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']), jobName);
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.signIns?.close();
    await this.env?.cleanup();
  }
}
