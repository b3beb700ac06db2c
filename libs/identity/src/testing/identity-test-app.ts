import { Module, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pool } from 'pg';
import { QueueName, type JobPayload } from '@plink/contracts';
import { PlatformModule, createHttpApp, createWorkerContext } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { loadConfig, type AppConfig } from '@plink/config';
import { unseal } from '@plink/crypto';
import { TestClient, createTestEnvironment, eventually, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { IdentityHttpModule, IdentitySessionsModule, IdentityWorkerModule } from '../identity.module';
import { IDENTITY_SCHEMA } from '../identity.schema';

export { TestClient };

const TOKEN_MAILS = new Set(['email.verification', 'email.password-reset', 'email.email-change-confirm']);

/** An account e-mail as identity records it for the e-mail worker, with its token unsealed. */
export interface AccountMail {
  kind: 'verification' | 'password-reset' | 'email-change-confirm';
  to: { userId: number; email: string; username: string };
  token: string;
}

/**
 * The identity service's HTTP side as the gateway mounts it (its calls, and the sessions every service's
 * guard reads), on a fresh database and Redis prefix; `startWorker()` adds its worker as `apps/identity`
 * runs it. The account e-mails are read as identity hands them to the notifications service (the jobs on the
 * e-mail queue, their sealed tokens opened); the e-mails as sent are tested in the gateway.
 */
export class IdentityTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;

  static async start(overrides: Record<string, string> = {}): Promise<IdentityTestApp> {
    const t = new IdentityTestApp();
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', ...overrides });
    t.config = loadConfig(t.env.vars);

    @Module({ imports: [PlatformModule.forRoot({ config: t.config, schemas: [IDENTITY_SCHEMA] }), IdentitySessionsModule, IdentityHttpModule] })
    class TestGatewayModule {}

    t.app = await createHttpApp(TestGatewayModule, t.config);
    await t.app.init();
    t.origin = await listenOnLoopback(t.app);
    t.db = await openTestPool(t.env.database.url);
    return t;
  }

  /** Runs the identity service's worker (plan changes, account e-mails addressed), as `apps/identity` does. */
  async startWorker(): Promise<void> {
    this.worker = await createWorkerContext({ service: 'identity', workerModule: IdentityWorkerModule, schema: IDENTITY_SCHEMA, defaultHealthPort: 0 }, this.config);
    await this.worker.init();
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** The account e-mails recorded for an address (any case) so far, oldest first. */
  async mailsTo(email: string): Promise<AccountMail[]> {
    const jobs = await this.app.get(JobQueue).queue(QueueName.Email).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
    return jobs
      .filter((j) => j && TOKEN_MAILS.has(j.name))
      .map((j) => ({ job: j, payload: j.data.payload as JobPayload<'email.verification'> }))
      .filter(({ payload }) => payload.to.email.toLowerCase() === email.toLowerCase())
      .sort((a, b) => a.job.timestamp - b.job.timestamp)
      .map(({ job, payload }) => ({
        kind: job.name.slice('email.'.length) as AccountMail['kind'],
        to: payload.to,
        token: unseal(this.config.sessionSecret, payload.sealedToken),
      }));
  }

  /** Waits for the newest account e-mail of that kind to an address, beyond the first `after` of them. */
  async mailFor(email: string, kind: AccountMail['kind'], after = 0): Promise<AccountMail> {
    return eventually(async () => (await this.mailsTo(email)).filter((m) => m.kind === kind)[after]);
  }

  /** The e-mail-change notices recorded for an address (any case) so far, oldest first. */
  async noticesTo(email: string): Promise<JobPayload<'email.email-change-notice'>[]> {
    const jobs = await this.app.get(JobQueue).queue(QueueName.Email).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
    return jobs
      .filter((j) => j?.name === 'email.email-change-notice')
      .sort((a, b) => a.timestamp - b.timestamp)
      .map((j) => j.data.payload as JobPayload<'email.email-change-notice'>)
      .filter((payload) => payload.to.email.toLowerCase() === email.toLowerCase());
  }

  /** Waits for the `after`-th notice (from 0) of that stage to an address. */
  async noticeFor(email: string, stage: 'requested' | 'changed', after = 0): Promise<JobPayload<'email.email-change-notice'>> {
    return eventually(async () => (await this.noticesTo(email)).filter((n) => n.stage === stage)[after]);
  }

  /** The 'user.changed' messages the pages service was sent for a user, oldest first. */
  async profileChangesOf(userId: number): Promise<JobPayload<'user.changed'>[]> {
    const jobs = await this.app.get(JobQueue).queue(QueueName.Pages).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
    return jobs
      .filter((j) => j?.name === 'user.changed')
      .map((j) => j.data.payload as JobPayload<'user.changed'>)
      .filter((p) => p.userId === userId)
      .sort((a, b) => a.version - b.version);
  }

  async userCount(): Promise<number> {
    return Number((await this.db.query('select count(*) from identity.users')).rows[0].count);
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.env?.cleanup();
  }
}
