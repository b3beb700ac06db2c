import { randomBytes } from 'node:crypto';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import type { Pool } from 'pg';
import {
  QueueName,
  WEBHOOK_SECRET_SEAL,
  WebhookMessages,
  type CreatedHookDto,
  type EventPayload,
  type JobEnvelope,
  type JobPayload,
  type WebhookDisableReason,
  type WebhookDto,
} from '@plink/contracts';
import { recordedJobs } from '@plink/contracts/testing';
import { seal } from '@plink/crypto';
import { PlatformModule, createHttpApp, createWorkerContext } from '@plink/platform';
import { JobQueue, Outbox } from '@plink/queue';
import { ApiTokenLookup, SessionLookup } from '@plink/http';
import { loadConfig, type AppConfig } from '@plink/config';
import { TestClient, TestSignIns, createTestEnvironment, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { NotificationsWorkerModule, WebhooksHttpModule } from '../notifications.module';
import { NOTIFICATIONS_SCHEMA } from '../notifications.schema';
import { HooksRepository } from '../hooks/hooks.repository';
import { WebhookEndpointLookup, type OwnedWebhookEndpoint } from '../http/webhook-endpoint-lookup';

export { TestClient };

/**
 * Settings for delivering to a receiver in the test: local addresses allowed as webhook targets (the
 * receiver listens on 127.0.0.1), no sign-in rate limit in the way.
 */
export const WEBHOOK_TEST_SETTINGS: Readonly<Record<string, string>> = {
  AUTH_RATE_LIMIT_PER_MINUTE: '0',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

export interface Creator {
  id: number;
  email: string;
  client: TestClient;
}

/** A page as the pages service has it, as far as its webhook goes (the test's stand-in for that service). */
export interface TestPage {
  id: number;
  ownerId: number;
  slug: string;
  title: string;
  url: string | null;
  /** Plain `whsec_…` secrets (stored sealed, as the pages service stores them). */
  secret: string | null;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  enabledAt: Date | null;
  disabledReason: WebhookDisableReason | null;
  /** The version of the page's last change (ms), the one its events carry. */
  version: number;
  deleted: boolean;
}

const DISABLED_MESSAGES: Record<WebhookDisableReason, string> = {
  gone: WebhookMessages.disabledGone,
  exhausted: WebhookMessages.disabledExhausted,
  failing: WebhookMessages.disabledFailing,
};

/**
 * The pages a test has, standing in for the pages service: the owner's webhook calls read the endpoint from it
 * now (the `WebhookEndpointLookup` port, as the gateway binds it to the pages service), and each change is
 * published as the pages service publishes it ('webhook-endpoint.changed' through the outbox).
 */
export class TestPages extends WebhookEndpointLookup {
  private readonly pages = new Map<number, TestPage>();
  /** Each secret sealed once, as the pages service stores it (a sealed value differs at each sealing). */
  private readonly sealed = new Map<string, string>();
  private nextId = 1_000 + Math.floor(Math.random() * 1_000_000);

  constructor(
    /** Seals a secret as the pages service does before it stores and publishes it. */
    private readonly sealSecret: (plain: string) => string,
    private readonly publicOrigin: string,
    private readonly publishEvent: (payload: EventPayload<'webhook-endpoint.changed'>) => Promise<void>,
  ) {
    super();
  }

  /** A page of `ownerId` with its webhook on `url` (and a new secret), published unless asked otherwise. */
  async create(ownerId: number, url: string | null, options: { publish?: boolean; title?: string } = {}): Promise<TestPage> {
    const id = (this.nextId += 1);
    const page: TestPage = {
      id,
      ownerId,
      slug: `hooked-${id}`,
      title: options.title ?? `Hooked ${id}`,
      url,
      secret: url ? newSecret() : null,
      previousSecret: null,
      previousSecretUntil: null,
      enabledAt: url ? new Date() : null,
      disabledReason: null,
      version: nextVersion(),
      deleted: false,
    };
    this.pages.set(id, page);
    if (options.publish !== false) await this.publish(page);
    return page;
  }

  get(pageId: number): TestPage {
    return this.pages.get(pageId)!;
  }

  findOwned(pageId: number, userId: number): Promise<{ id: number } | null> {
    const page = this.pages.get(pageId);
    return Promise.resolve(page && !page.deleted && page.ownerId === userId ? { id: page.id } : null);
  }

  /**
   * A change of the page's webhook as the owner (or Plink) makes it in the pages service; published unless
   * asked otherwise (then `publish(page)` delivers it later, as a message that comes late).
   */
  async change(page: TestPage, patch: Partial<Pick<TestPage, 'url' | 'disabledReason' | 'enabledAt'>>, options: { publish?: boolean } = {}): Promise<void> {
    Object.assign(page, patch);
    if (patch.url && !page.secret) page.secret = newSecret();
    if ('url' in patch) page.enabledAt = patch.url ? new Date() : null;
    page.version = nextVersion();
    if (options.publish !== false) await this.publish(page);
  }

  /** The owner rotates the secret: the new one, and the former one beside it for a day. */
  async rotateSecret(page: TestPage): Promise<void> {
    page.previousSecret = page.secret;
    page.previousSecretUntil = new Date(Date.now() + 24 * 3_600_000);
    page.secret = newSecret();
    page.version = nextVersion();
    await this.publish(page);
  }

  /** The page is deleted: its endpoint is gone. */
  async remove(page: TestPage): Promise<void> {
    page.deleted = true;
    page.version = nextVersion();
    await this.publishEvent({ v: 1, pageId: page.id, ownerId: page.ownerId, at: new Date(page.version).toISOString(), endpoint: null });
  }

  /** Publishes the page's endpoint as it is now, with the version of its last change. */
  async publish(page: TestPage): Promise<void> {
    await this.publishEvent(this.eventOf(page));
  }

  eventOf(page: TestPage): EventPayload<'webhook-endpoint.changed'> {
    return {
      v: 1,
      pageId: page.id,
      ownerId: page.ownerId,
      at: new Date(page.version).toISOString(),
      endpoint: {
        url: page.url,
        secret: this.sealedOf(page.secret),
        previousSecret: this.sealedOf(page.previousSecret),
        previousSecretUntil: page.previousSecretUntil?.toISOString() ?? null,
        enabled: !page.disabledReason,
        enabledAt: page.enabledAt?.toISOString() ?? null,
      },
    };
  }

  private sealedOf(secret: string | null): string | null {
    if (!secret) return null;
    if (!this.sealed.has(secret)) this.sealed.set(secret, this.sealSecret(secret));
    return this.sealed.get(secret)!;
  }

  async findWebhookTarget(pageId: number): Promise<OwnedWebhookEndpoint | null> {
    const page = this.pages.get(pageId);
    if (!page || page.deleted) return null;
    const signing = [page.secret, page.previousSecretUntil && page.previousSecretUntil > new Date() ? page.previousSecret : null].filter(
      (s): s is string => !!s,
    );
    return {
      pageId: page.id,
      ownerId: page.ownerId,
      slug: page.slug,
      title: page.title,
      pageUrl: `${this.publicOrigin}/${page.slug}`,
      url: page.url,
      secrets: signing,
      view: {
        url: page.url,
        enabled: !page.disabledReason,
        secret: signing.length > 0 ? signing.join(' ') : null,
        disabledReason: page.disabledReason ? DISABLED_MESSAGES[page.disabledReason] : null,
      },
    };
  }
}

let lastVersion = 0;
/** Versions as the pages service makes them (ms of the change), strictly increasing within the test. */
function nextVersion(): number {
  lastVersion = Math.max(Date.now(), lastVersion + 1);
  return lastVersion;
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The notifications service as the gateway mounts it (the owner's webhook calls, signed-in creators as
 * real rows of a test session lookup instead of identity, the page endpoints from {@link TestPages} instead
 * of the pages service) and its worker as `apps/notifications` runs it, on a fresh database and Redis prefix.
 * Its inputs come as the other services send them: 'webhook-endpoint.changed' as the pages service publishes
 * it, and `webhook.deliver` jobs as the leads service records them, both through the outbox.
 */
export class NotificationsTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;
  signIns!: TestSignIns;
  pages!: TestPages;
  private nextLeadId = 1 + Math.floor(Math.random() * 1_000_000);

  /** Starts the HTTP side and (unless `worker: false`) the worker. */
  static async start(overrides: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<NotificationsTestApp> {
    const t = new NotificationsTestApp();
    t.env = await createTestEnvironment({ ...WEBHOOK_TEST_SETTINGS, ...overrides });
    t.config = loadConfig(t.env.vars);
    t.signIns = await TestSignIns.open(t.env.database.url);
    const sealSecret = (plain: string) => seal(t.config.sessionSecret, plain, WEBHOOK_SECRET_SEAL);
    t.pages = new TestPages(sealSecret, t.config.publicOrigin, (payload) => t.inTransaction((em, outbox) => outbox.publish(em, 'webhook-endpoint.changed', payload)));

    @Global()
    @Module({
      providers: [
        { provide: SessionLookup, useValue: t.signIns },
        // The /api/v1 calls (API tokens) are tested through the gateway, where identity answers this port.
        { provide: ApiTokenLookup, useValue: { verify: () => Promise.resolve(null) } },
        { provide: WebhookEndpointLookup, useValue: t.pages },
      ],
      exports: [SessionLookup, ApiTokenLookup, WebhookEndpointLookup],
    })
    class GatewayStandInModule {}

    @Module({ imports: [PlatformModule.forRoot({ config: t.config, schemas: [NOTIFICATIONS_SCHEMA] }), GatewayStandInModule, WebhooksHttpModule] })
    class TestGatewayModule {}

    t.app = await createHttpApp(TestGatewayModule, t.config);
    await t.app.init();
    t.origin = await listenOnLoopback(t.app);
    t.db = await openTestPool(t.env.database.url);
    if (options.worker !== false) await t.startWorker();
    return t;
  }

  /** Runs the notifications service's worker (the webhooks and e-mail queues), as `apps/notifications` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext(
      { service: 'notifications', workerModule: NotificationsWorkerModule, schema: NOTIFICATIONS_SCHEMA, defaultHealthPort: 0 },
      this.config,
    );
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A creator, signed in; Pro unless asked otherwise. */
  async creator(options: { premium?: boolean } = {}): Promise<Creator> {
    const user = await this.signIns.create({ premium: options.premium ?? true });
    return { id: user.id, email: user.email, client: this.client().setCookies(user.cookie) };
  }

  /** The owner's webhook panel (GET /api/pages/{id}/webhook). */
  async webhookOf(owner: Creator, pageId: number): Promise<WebhookDto> {
    const answer = await owner.client.get(`/api/pages/${pageId}/webhook`);
    if (answer.status !== 200) throw new Error(`GET webhook answered ${answer.status}`);
    return answer.body as WebhookDto;
  }

  /**
   * New leads on the page, as the leads service records their deliveries (one `webhook.deliver` job each,
   * through the outbox, in one transaction): the page as the visitor saw it and the version of the page's
   * facts the capture read. Answers the jobs' payloads.
   */
  async deliverLeads(page: TestPage, emails: string[], options: { pageVersion?: number } = {}): Promise<JobPayload<'webhook.deliver'>[]> {
    const payloads = emails.map((email) => this.leadDelivery(page, email, options));
    await this.inTransaction((em, outbox) => {
      for (const payload of payloads) outbox.record(em, 'webhook.deliver', payload);
    });
    return payloads;
  }

  async deliverLead(page: TestPage, email: string, options: { pageVersion?: number } = {}): Promise<JobPayload<'webhook.deliver'>> {
    return (await this.deliverLeads(page, [email], options))[0];
  }

  leadDelivery(page: TestPage, email: string, options: { pageVersion?: number } = {}): JobPayload<'webhook.deliver'> {
    const now = new Date().toISOString();
    return {
      v: 1,
      leadId: (this.nextLeadId += 1),
      pageId: page.id,
      email,
      createdAt: now,
      consentAt: now,
      page: { slug: page.slug, title: page.title, url: `${this.config.publicOrigin}/${page.slug}` },
      pageVersion: options.pageVersion ?? page.version,
      planVersion: 1,
    };
  }

  /** A hook subscription of the owner, as `POST /api/v1/hooks` makes it (all pages without `pageId`): answered with its secret. */
  async subscribe(ownerId: number, targetUrl: string, pageId: number | null = null): Promise<CreatedHookDto> {
    return this.app.get(HooksRepository).create(ownerId, { event: 'lead.created', targetUrl, pageId });
  }

  /**
   * New leads on the page of an owner with hooks, as the leads service records their `hook.deliver` jobs
   * (through the outbox, in one transaction). Answers the jobs' payloads.
   */
  async deliverHookLeads(page: TestPage, emails: string[]): Promise<JobPayload<'hook.deliver'>[]> {
    const payloads = emails.map((email) => ({ ...this.leadDelivery(page, email), ownerId: page.ownerId }));
    await this.inTransaction((em, outbox) => {
      for (const payload of payloads) outbox.record(em, 'hook.deliver', payload);
    });
    return payloads;
  }

  /** The queues' jobs of one name, in the given states. */
  async jobs<N extends string>(queue: QueueName, name: N, states: ('waiting' | 'active' | 'delayed' | 'prioritized' | 'completed' | 'failed')[]): Promise<Job<JobEnvelope>[]> {
    const all = (await this.app.get(JobQueue).queue(queue).getJobs(states)) as Job<JobEnvelope>[];
    return recordedJobs(all, name);
  }

  /** The `pages.disable-webhook` jobs sent to the pages service (whose part it is to turn the webhook off). */
  async disableRequests(pageId: number): Promise<JobPayload<'pages.disable-webhook'>[]> {
    const jobs = await this.jobs(QueueName.Pages, 'pages.disable-webhook', ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed']);
    return jobs.map((job) => job.data.payload as JobPayload<'pages.disable-webhook'>).filter((p) => p.pageId === pageId);
  }

  /** Runs `work` in a transaction of this process, with its outbox: what it records is relayed once it commits. */
  async inTransaction(work: (em: EntityManager, outbox: Outbox) => void | Promise<void>): Promise<void> {
    const outbox = this.app.get(Outbox);
    await this.app.get(EntityManager).fork().transactional(async (em) => {
      await work(em, outbox);
    });
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.signIns?.close();
    await this.env?.cleanup();
  }
}
