import { Global, Inject, Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { QUEUE_SETTINGS, QueueName, jobsOfQueue, type AccountEmail, type EventPayload, UserDirectory } from '@plink/contracts';
import { PlatformModule, createHttpApp, createWorkerContext } from '@plink/platform';
import { ContractWorker, Outbox, type JobHandlers } from '@plink/queue';
import { withOrmContext } from '@plink/data';
import { SessionLookup } from '@plink/http';
import { loadConfig, type AppConfig } from '@plink/config';
import { FakeStripe, TestClient, TestSignIns, createTestEnvironment, eventually, type FakeStripeOptions, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { BillingHttpModule, BillingWorkerModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { runPlinkCommand, type PlinkCommandUsers } from '../operator/plink-command';

export { TestClient };

export interface Creator {
  id: number;
  username: string;
  email: string;
  client: TestClient;
}

/** A message billing published, as one subscriber's queue received it. */
export interface ReceivedMessage {
  queue: QueueName;
  name: string;
  payload: Record<string, unknown>;
}

/** A 'plan.changed' as billing publishes it. */
export interface PlanChange {
  userId: number;
  isPremium: boolean;
  planStatus: string;
  periodEnd: string | null;
  version: number;
  [field: string]: unknown;
}

/** An account e-mail as billing hands it to identity (which addresses it): which one, and what it says. */
export interface AccountEmailJob {
  email: AccountEmail;
  content: Record<string, unknown>;
}

/**
 * The services that take billing's messages (identity, pages, leads), standing in: every message on their
 * queues is taken and kept here, and identity's part that billing's HTTP calls wait on is done as identity
 * does it: a 'plan.changed' newer than the user's copy sets the user's plan, so their next request carries it.
 */
@Injectable()
export class StandInSubscribers {
  readonly received: ReceivedMessage[] = [];
  private readonly versions = new Map<number, number>();

  constructor(private readonly signIns: TestSignIns) {}

  async take(queue: QueueName, name: string, payload: Record<string, unknown>): Promise<void> {
    this.received.push({ queue, name, payload });
    if (queue === QueueName.Identity && name === 'plan.changed') {
      const change = payload as unknown as PlanChange;
      if (change.version > (this.versions.get(change.userId) ?? 0)) {
        this.versions.set(change.userId, change.version);
        await this.signIns.setPremium(change.userId, change.isPremium);
      }
    }
  }
}

function takingEvery<Q extends QueueName>(queue: Q, subscribers: StandInSubscribers): JobHandlers<Q> {
  const handlers = Object.fromEntries(jobsOfQueue(queue).map((name) => [name, (payload: Record<string, unknown>) => subscribers.take(queue, name, payload)]));
  return handlers as unknown as JobHandlers<Q>;
}

@Processor(QueueName.Identity, { concurrency: QUEUE_SETTINGS[QueueName.Identity].concurrency })
class StandInIdentityQueue extends ContractWorker<QueueName.Identity> {
  protected readonly queueName = QueueName.Identity;
  protected readonly handlers: JobHandlers<QueueName.Identity>;
  constructor(@Inject(StandInSubscribers) subscribers: StandInSubscribers) {
    super();
    this.handlers = takingEvery(QueueName.Identity, subscribers);
  }
}

@Processor(QueueName.Pages, { concurrency: QUEUE_SETTINGS[QueueName.Pages].concurrency })
class StandInPagesQueue extends ContractWorker<QueueName.Pages> {
  protected readonly queueName = QueueName.Pages;
  protected readonly handlers: JobHandlers<QueueName.Pages>;
  constructor(@Inject(StandInSubscribers) subscribers: StandInSubscribers) {
    super();
    this.handlers = takingEvery(QueueName.Pages, subscribers);
  }
}

@Processor(QueueName.Leads, { concurrency: QUEUE_SETTINGS[QueueName.Leads].concurrency })
class StandInLeadsQueue extends ContractWorker<QueueName.Leads> {
  protected readonly queueName = QueueName.Leads;
  protected readonly handlers: JobHandlers<QueueName.Leads>;
  constructor(@Inject(StandInSubscribers) subscribers: StandInSubscribers) {
    super();
    this.handlers = takingEvery(QueueName.Leads, subscribers);
  }
}

export interface BillingTestOptions {
  /** Settings beyond the test's own database and Redis prefix. */
  overrides?: Record<string, string>;
  /** A FakeStripe to pay with (its options), its webhooks sent to this app; without it, payments are not configured. */
  stripe?: FakeStripeOptions;
  /** Starts billing's worker too (default true). */
  worker?: boolean;
}

/**
 * The billing service as the gateway mounts it (its subscription calls and Stripe's webhook intake) and its
 * worker as `apps/billing` runs it, on a fresh database and Redis prefix, with the real `stripe` SDK talking
 * to a {@link FakeStripe} when asked. Signed-in creators come from TestSignIns instead of identity (which
 * also answers the `UserDirectory` port), and the services that take billing's messages are
 * {@link StandInSubscribers}: billing's outputs are its answers, its calls to Stripe (the fake records them)
 * and the messages it publishes. Pages, leads and the e-mails as sent are tested across services in the gateway.
 */
export class BillingTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;
  signIns!: TestSignIns;
  subscribers!: StandInSubscribers;
  stripe?: FakeStripe;
  private n = 0;

  static async start(options: BillingTestOptions = {}): Promise<BillingTestApp> {
    const t = new BillingTestApp();
    if (options.stripe) t.stripe = await FakeStripe.start(options.stripe);
    const stripeVars: Record<string, string> = t.stripe
      ? { STRIPE_SECRET_KEY: t.stripe.secretKey, STRIPE_WEBHOOK_SECRET: t.stripe.webhookSecret, STRIPE_PRICE_ID: t.stripe.priceId, STRIPE_API_URL: t.stripe.url }
      : {};
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', ...stripeVars, ...options.overrides });
    t.config = loadConfig(t.env.vars);
    t.signIns = await TestSignIns.open(t.env.database.url);
    t.subscribers = new StandInSubscribers(t.signIns);

    @Global()
    @Module({
      providers: [
        { provide: SessionLookup, useValue: t.signIns },
        { provide: UserDirectory, useValue: t.signIns },
        { provide: StandInSubscribers, useValue: t.subscribers },
      ],
      exports: [SessionLookup, UserDirectory, StandInSubscribers],
    })
    class GatewayStandInModule {}

    @Module({ providers: [StandInIdentityQueue, StandInPagesQueue, StandInLeadsQueue] })
    class SubscribersStandInModule {}

    @Module({ imports: [PlatformModule.forRoot({ config: t.config, schemas: [BILLING_SCHEMA] }), GatewayStandInModule, BillingHttpModule, SubscribersStandInModule] })
    class TestGatewayModule {}

    t.app = await createHttpApp(TestGatewayModule, t.config);
    await t.app.init();
    t.origin = await listenOnLoopback(t.app);
    t.stripe?.setWebhookUrl(`${t.origin}/api/webhooks/stripe`);
    t.db = await openTestPool(t.env.database.url);
    if (options.worker !== false) await t.startWorker();
    return t;
  }

  /** Runs the billing service's worker (Stripe's events, grant expiry, lead removal), as `apps/billing` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext({ service: 'billing', workerModule: BillingWorkerModule, schema: BILLING_SCHEMA, defaultHealthPort: 0 }, this.config);
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A signed-in creator (verified unless asked otherwise), Free. */
  async creator(options: { email?: string; verified?: boolean } = {}): Promise<Creator> {
    this.n += 1;
    const tag = `${Date.now().toString(36)}${this.n}`;
    const user = await this.signIns.create({ username: `payer_${tag}`, email: options.email ?? `payer.${tag}@example.com`, verified: options.verified ?? true });
    return { id: user.id, username: user.username, email: user.email, client: this.client().setCookies(user.cookie) };
  }

  /** The user's plan as their own requests now carry it (identity's copy, kept by the stand-in from 'plan.changed'). */
  async isPremium(userId: number): Promise<boolean> {
    return (await this.signIns.isPremiumNow(userId)) === true;
  }

  /** The 'plan.changed' messages about the user that reached a subscriber's queue, in the order taken. */
  planChanges(userId: number, queue: QueueName = QueueName.Identity): PlanChange[] {
    return this.subscribers.received
      .filter((m) => m.queue === queue && m.name === 'plan.changed' && m.payload.userId === userId)
      .map((m) => m.payload as unknown as PlanChange);
  }

  /** The newest plan billing published for the user to identity (the highest version), or undefined. */
  latestPlan(userId: number): PlanChange | undefined {
    return this.planChanges(userId).sort((a, b) => a.version - b.version).at(-1);
  }

  /** The account e-mails billing asked identity to send the user, in the order taken (one kind, when given). */
  emails(userId: number, kind?: AccountEmail): AccountEmailJob[] {
    return this.subscribers.received
      .filter((m) => m.queue === QueueName.Identity && m.name === 'identity.account-email' && m.payload.userId === userId)
      .map((m) => ({ email: m.payload.email as AccountEmail, content: m.payload.content as Record<string, unknown> }))
      .filter((m) => !kind || m.email === kind);
  }

  /** Waits for the user's account e-mail of that kind (the first one, or the one after `after` of them). */
  email(userId: number, kind: AccountEmail, after = 0, timeoutMs = 15_000): Promise<AccountEmailJob> {
    return eventually(async () => this.emails(userId, kind)[after], timeoutMs);
  }

  /** The billing account row of the user, as stored (undefined before billing knows them). */
  async account(userId: number): Promise<Record<string, any> | undefined> {
    return (await this.db.query('select * from billing.accounts where user_id = $1', [userId])).rows[0];
  }

  /** Users for the operator's command, as `apps/cli` gives it identity's directory: here the test's sign-ins. */
  operatorUsers(): PlinkCommandUsers {
    const signIns = this.signIns;
    @Global()
    @Module({ providers: [{ provide: UserDirectory, useValue: signIns }], exports: [UserDirectory] })
    class StandInUserDirectoryModule {}
    return { module: StandInUserDirectoryModule, schemas: [] };
  }

  /** The operator's command (`npm run plink -- …`) on this app's database and Redis prefix, as the CLI runs it. */
  async plink(args: string[], env: Record<string, string> = {}, now?: Date): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlinkCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line), env: { ...this.env.vars, ...env }, now }, this.operatorUsers());
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** Identity's 'user.changed' (a new username or e-mail address), published as identity does: through the outbox. */
  async userChanged(payload: EventPayload<'user.changed'>): Promise<void> {
    const orm = this.app.get<MikroORM>(MikroORM);
    const outbox = this.app.get(Outbox);
    await withOrmContext(orm, () => orm.em.transactional(async (em) => outbox.publish(em, 'user.changed', payload)));
  }

  /** Identity's 'user.deleted' (Settings → Account → Delete account), published as identity does: through the outbox. */
  async userDeleted(userId: number): Promise<void> {
    const orm = this.app.get<MikroORM>(MikroORM);
    const outbox = this.app.get(Outbox);
    await withOrmContext(orm, () => orm.em.transactional(async (em) => outbox.publish(em, 'user.deleted', { v: 1, userId, deletedAt: new Date().toISOString() })));
  }

  /** Starts checkout as the SPA does; answers the Checkout page and its session id. */
  async startCheckout(c: Creator): Promise<{ url: string; sessionId: string }> {
    const answer = await c.client.post('/api/create-subscription');
    if (answer.status !== 200) throw new Error(`create-subscription answered ${answer.status} ${JSON.stringify(answer.body)}`);
    return { url: answer.body.url, sessionId: /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(answer.body.url)![1] };
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.signIns?.close();
    await this.env?.cleanup();
    await this.stripe?.close();
  }
}
