import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pool } from 'pg';
import type { PageDto, QueueName } from '@plink/contracts';
import { ApplyPlanService } from '@plink/billing';
import { JobQueue } from '@plink/queue';
import { SmtpCatcher, pollUntil as eventually } from '@plink/testing';
import { visitorFormToken } from './form-tokens';
import { TestBrowser } from './http-client';
import { startTestGateway, type TestGateway } from './test-gateway';

export interface Creator {
  id: number;
  username: string;
  browser: TestBrowser;
}

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
 * The world of the leads suites: the whole gateway with every service's processors in-process, a real
 * PostgreSQL database, Redis and an SMTP catcher, started before the suite's tests and stopped after them,
 * with a Pro creator (`pro`) and the helpers the suites share. LEAD_RATE_LIMIT_PER_MINUTE=0 (many
 * submissions from one address); the limit itself is shown in leads-rate-limit.int-spec.ts.
 *
 * Call it at the top of a `describe`: the fields are set once its `beforeAll` has run (read them inside
 * tests and hooks); the functions can be taken out at once.
 */
export function leadsGateway() {
  const state = {
    gateway: undefined as unknown as TestGateway,
    smtp: undefined as unknown as SmtpCatcher,
    app: undefined as unknown as NestFastifyApplication,
    origin: '',
    db: undefined as unknown as Pool,
    /** A verified Pro creator made before the tests. */
    pro: undefined as unknown as Creator,
  };

  const browser = () => new TestBrowser(state.origin);

  /**
   * A verified creator, Free or Pro. Pro as billing makes it (its plan change reaches identity, pages and
   * leads), once every copy has it.
   */
  async function creator(plan: 'free' | 'pro' = 'pro'): Promise<Creator> {
    const b = browser();
    const t = tag();
    const who = { username: `creator_${t}`, email: `creator.${t}@example.com`, password: 'creator-secret' };
    const registered = await b.post('/api/register', who);
    expect(registered.status).toBe(201);
    const id = registered.body.id as number;
    await state.db.query('update identity.users set is_verified = true where id = $1', [id]);
    if (plan === 'pro') {
      await state.app.get(ApplyPlanService, { strict: false }).applyPlan(id, { status: 'active', source: 'operator' });
      const copies = async () =>
        (
          await state.db.query(
            'select (select is_premium from identity.users where id = $1) as identity, (select is_pro from leads.owner_plans where owner_id = $1) as leads',
            [id],
          )
        ).rows[0];
      expect(await eventually(copies, (c) => c.identity === true && c.leads === true)).toEqual({ identity: true, leads: true });
    }
    return { id, username: who.username, browser: b };
  }

  async function createPage(owner: Creator, fields: Record<string, unknown> = {}): Promise<PageDto> {
    const res = await owner.browser.post('/api/pages', { slug: `page-${tag()}`, title: 'A landing page', ...fields });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return res.body as PageDto;
  }

  const submit = (slug: string, body: unknown, b = browser()) => b.post(`/api/page/${slug}/submit`, body);

  /** The page's form posted as a browser without JavaScript does (with the page's form token unless `fields` sets one). */
  const formPost = async (path: string, fields: Record<string, string>) => {
    const formToken = 'formToken' in fields ? undefined : await visitorFormToken(state.origin, path);
    return fetch(state.origin + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(formToken ? { ...fields, formToken } : fields).toString(),
    });
  };

  const leadCount = async (pageId: number) => Number((await state.db.query('select count(*) from leads.leads where page_id = $1', [pageId])).rows[0].count);
  const conversions = async (pageId: number) =>
    Number((await state.db.query('select coalesce(sum(conversions), 0) as conversions from leads.page_counters where page_id = $1', [pageId])).rows[0].conversions);
  const leadId = async (pageId: number, email: string) =>
    Number((await state.db.query('select id from leads.leads where page_id = $1 and email_lower = lower($2)', [pageId, email])).rows[0]?.id);

  /** Every recorded job has left the outbox for BullMQ. */
  const outboxDrained = () =>
    eventually(
      async () => Number((await state.db.query('select count(*) from platform.outbox').then((r) => r.rows[0].count))),
      (count) => count === 0,
    );

  const queue = (name: QueueName) => state.app.get(JobQueue).queue(name);
  const jobsOf = async (name: QueueName, jobName: string) =>
    (await queue(name).getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'])).filter((j) => j?.name === jobName);

  beforeAll(async () => {
    state.smtp = await SmtpCatcher.start();
    state.gateway = await startTestGateway({
      SMTP_URL: state.smtp.url,
      PLINK_WORKERS: 'all',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
      LEAD_FLOOD_PER_HOUR: '0',
      LEAD_REFUSED_PER_HOUR: '0',
      DATABASE_POOL_MAX: '10',
    });
    ({ app: state.app, origin: state.origin, db: state.db } = state.gateway);
    state.pro = await creator('pro');
  });

  afterAll(async () => {
    await state.gateway?.close();
    await state.smtp?.stop();
  });

  return Object.assign(state, { browser, tag, creator, createPage, submit, formPost, leadCount, conversions, leadId, eventually, outboxDrained, queue, jobsOf });
}

let n = 0;
/** A name part no other call in this process gives. */
const tag = () => `${Date.now().toString(36)}${(n += 1)}`;

