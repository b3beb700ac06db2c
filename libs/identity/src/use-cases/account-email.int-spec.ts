import { type INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { QueueName, type AccountEmail } from '@plink/contracts';
import { createWorkerContext } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { hashToken, seal } from '@plink/crypto';
import { loadConfig, type AppConfig } from '@plink/config';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { IdentityWorkerModule } from '../identity.module';
import { IDENTITY_SCHEMA } from '../identity.schema';
import { AccountEmailService } from './account-email.service';

/**
 * Account e-mails recorded by user id are addressed by identity, on a real database and Redis: the checks that
 * need the account are made here, and the e-mail is recorded for the e-mail worker with the address and name.
 */
describe('addressing account e-mails', () => {
  let env: TestEnvironment;
  let config: AppConfig;
  let app: INestApplicationContext;
  let db: Client;
  let service: AccountEmailService;
  let n = 0;

  beforeAll(async () => {
    env = await createTestEnvironment();
    config = loadConfig(env.vars);
    app = await createWorkerContext({ service: 'identity', workerModule: IdentityWorkerModule, schema: IDENTITY_SCHEMA, defaultHealthPort: 0 }, config);
    await app.init();
    service = app.get(AccountEmailService);
    db = new Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    await app?.close();
    await db?.end();
    await env?.cleanup();
  });

  const HOUR = 3_600_000;

  async function user(fields: { verified?: boolean; premium?: boolean; verificationToken?: string; resetToken?: string; expiresInMs?: number } = {}) {
    n += 1;
    const expiry = new Date(Date.now() + (fields.expiresInMs ?? HOUR));
    const { rows } = await db.query(
      `insert into identity.users (username, email, password_hash, is_verified, is_premium, verification_token, verification_token_expiry, reset_password_token, reset_password_token_expiry)
       values ($1, $2, 'x', $3, $4, $5, $6, $7, $8) returning id`,
      [
        `mail_user_${n}`,
        `Mail.User.${n}@Example.com`,
        fields.verified ?? false,
        fields.premium ?? false,
        fields.verificationToken ? hashToken(fields.verificationToken) : null,
        fields.verificationToken ? expiry : null,
        fields.resetToken ? hashToken(fields.resetToken) : null,
        fields.resetToken ? expiry : null,
      ],
    );
    return { id: rows[0].id as number, email: `Mail.User.${n}@Example.com`, username: `mail_user_${n}` };
  }

  /** The e-mail jobs recorded for this user (relayed to the e-mail queue, which no worker takes here). */
  async function mailsFor(userId: number, name: AccountEmail): Promise<Record<string, unknown>[]> {
    const queue = app.get(JobQueue).queue(QueueName.Email);
    const deadline = Date.now() + 1_500;
    let found: Record<string, unknown>[] = [];
    while (Date.now() < deadline) {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
      found = jobs.filter((j) => j?.name === name && j.data.payload.to?.userId === userId).map((j) => j.data.payload);
      if (found.length > 0) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    return found;
  }

  it('records a plan e-mail with the address and name, keeping what it says', async () => {
    const u = await user();
    await service.execute({ v: 1, userId: u.id, email: 'email.pro-started', content: { until: '2027-01-01T00:00:00.000Z', trial: true } });
    expect(await mailsFor(u.id, 'email.pro-started')).toEqual([
      { v: 1, to: { userId: u.id, email: u.email, username: u.username }, until: '2027-01-01T00:00:00.000Z', trial: true },
    ]);
  });

  it("addresses the leads service's under-attack e-mail to the page's owner (leads knows the owner by id only)", async () => {
    const u = await user();
    const content = { page: { id: 42, title: 'Free checklist' }, until: '2026-11-28T04:40:00.000Z' };
    await service.execute({ v: 1, userId: u.id, email: 'email.page-under-attack', content });
    expect(await mailsFor(u.id, 'email.page-under-attack')).toEqual([{ v: 1, to: { userId: u.id, email: u.email, username: u.username }, ...content }]);
  });

  it('sends a verification link only to an unverified user, and only while it is the current link', async () => {
    const current = await user({ verificationToken: 'current-token' });
    const sealedToken = seal(config.sessionSecret, 'current-token');
    await service.execute({ v: 1, userId: current.id, email: 'email.verification', content: { sealedToken } });
    expect(await mailsFor(current.id, 'email.verification')).toEqual([{ v: 1, to: expect.objectContaining({ userId: current.id }), sealedToken }]);

    const verified = await user({ verified: true, verificationToken: 'verified-token' });
    await service.execute({ v: 1, userId: verified.id, email: 'email.verification', content: { sealedToken: seal(config.sessionSecret, 'verified-token') } });
    const replaced = await user({ verificationToken: 'newer-token' });
    await service.execute({ v: 1, userId: replaced.id, email: 'email.verification', content: { sealedToken: seal(config.sessionSecret, 'older-token') } });
    expect(await mailsFor(verified.id, 'email.verification')).toEqual([]);
    expect(await mailsFor(replaced.id, 'email.verification')).toEqual([]);
  });

  it('sends a reset link only while it is current (not replaced, not expired)', async () => {
    const current = await user({ resetToken: 'reset-token' });
    await service.execute({ v: 1, userId: current.id, email: 'email.password-reset', content: { sealedToken: seal(config.sessionSecret, 'reset-token') } });
    const expired = await user({ resetToken: 'expired-token', expiresInMs: -1_000 });
    await service.execute({ v: 1, userId: expired.id, email: 'email.password-reset', content: { sealedToken: seal(config.sessionSecret, 'expired-token') } });
    expect(await mailsFor(current.id, 'email.password-reset')).toHaveLength(1);
    expect(await mailsFor(expired.id, 'email.password-reset')).toEqual([]);
  });

  it('sends no lead-removal warning to a user who is Pro again, and nothing to an account that is gone', async () => {
    const free = await user();
    const pro = await user({ premium: true });
    for (const u of [free, pro]) {
      await service.execute({ v: 1, userId: u.id, email: 'email.lead-removal-warning', content: { removalAt: '2026-12-24T10:00:00.000Z' } });
    }
    await service.execute({ v: 1, userId: 2_147_483_000, email: 'email.pro-ended', content: {} });
    expect(await mailsFor(free.id, 'email.lead-removal-warning')).toHaveLength(1);
    expect(await mailsFor(pro.id, 'email.lead-removal-warning')).toEqual([]);
    expect(await mailsFor(2_147_483_000, 'email.pro-ended')).toEqual([]);
  });
});
