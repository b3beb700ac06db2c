import { Webhook } from 'standardwebhooks';
import type { Job } from 'bullmq';
import { QueueName, WebhookMessages, type JobEnvelope, type JobPayload, type LeadCreatedEvent, type WebhookDeliveryDto, type WebhookDto } from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { JobQueue } from '@plink/queue';
import { SmtpCatcher, type CaughtMail, WebhookReceiver, type ReceivedWebhook, eventually } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { WEBHOOK_TEST_SETTINGS, startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Webhooks as a Pro creator and their receiver see them: the whole gateway with every worker in-process (real
 * PostgreSQL, Redis, SMTP), and a real HTTP receiver on 127.0.0.1 (allowed by WEBHOOK_ALLOW_PRIVATE_NETWORKS).
 */
describe('webhooks, end to end', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let receiver: WebhookReceiver;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    receiver = await WebhookReceiver.start();
    gateway = await startTestGateway({ ...WEBHOOK_TEST_SETTINGS, SMTP_URL: smtp.url });
  });

  afterAll(async () => {
    await gateway?.close();
    await receiver?.stop();
    await smtp?.stop();
  });

  async function plink(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlinkCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: gateway.env.vars }, identityUsers);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  interface Creator {
    id: number;
    email: string;
    browser: TestBrowser;
  }

  /** A verified creator, made Pro by the operator's command (unless `free`). */
  async function creator(free = false): Promise<Creator> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `hook_${tag}`, email: `hook.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    if (!free) {
      expect((await plink(['grant-pro', who.email])).code).toBe(0);
      await eventually(async () => (await browser.get('/api/user')).body.isPremium === true);
    }
    return { id: registered.body.id, email: who.email, browser };
  }

  /** A page of the creator with its webhook on `path` of the receiver. */
  async function pageWithWebhook(owner: Creator, path: string): Promise<{ id: number; slug: string }> {
    const slug = `hooked-${n}-${Date.now().toString(36)}`;
    const created = await owner.browser.post('/api/pages', { slug, title: `Hooked ${n}`, webhookUrl: `${receiver.origin}${path}` });
    expect(created.status).toBe(201);
    expect(created.body.webhookUrl).toBe(`${receiver.origin}${path}`);
    return { id: created.body.id, slug };
  }

  const submit = (slug: string, email: string) => gateway.browser().post(`/api/page/${slug}/submit`, { email, consent: true });

  /**
   * A Pro creator's page with a webhook, once the delivery service's copy of its endpoint holds it and the
   * leads service has the page's webhook on and its owner on Pro: the state each race test then changes.
   */
  async function pageKnownEverywhere(path: string): Promise<{ owner: Creator; page: { id: number; slug: string } }> {
    const owner = await creator();
    const page = await pageWithWebhook(owner, path);
    const row = async (sql: string) => (await gateway.db.query(sql, [page.id])).rows[0];
    await eventually(async () => (await row('select enabled from notifications.webhook_endpoints where page_id = $1'))?.enabled === true);
    await eventually(async () => (await row('select webhook_on from leads.page_facts where page_id = $1'))?.webhook_on === true);
    await eventually(async () => (await gateway.db.query('select is_pro from leads.owner_plans where owner_id = $1', [owner.id])).rows[0]?.is_pro === true);
    return { owner, page };
  }
  const webhookOf = async (owner: Creator, pageId: number) => (await owner.browser.get(`/api/pages/${pageId}/webhook`)).body as WebhookDto;
  const verify = (secret: string, hook: ReceivedWebhook) =>
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as LeadCreatedEvent;

  it('delivers a new lead, signed per Standard Webhooks, and logs it for the owner', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/signed');
    const endpoint = await webhookOf(owner, page.id);
    expect(endpoint).toMatchObject({ url: `${receiver.origin}/hooks/signed`, enabled: true, disabledReason: null, deliveries: [] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    // Stored sealed: the database alone does not give the secret away.
    const stored = (await gateway.db.query('select webhook_secret from pages.pages where id = $1', [page.id])).rows[0].webhook_secret as string;
    expect(stored).not.toContain(endpoint.secret!.slice(6));
    expect(stored).not.toContain('whsec_');

    const submitted = Date.now();
    expect((await submit(page.slug, 'Ada@Example.com')).status).toBe(200);
    const [hook] = await eventually(async () => receiver.on('/hooks/signed').length === 1 && receiver.on('/hooks/signed'));
    console.log(`lead accepted → webhook received: ${hook.at - submitted} ms`);

    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toBe('Plink-Webhooks/1');
    expect(hook.headers['webhook-id']).toMatch(/^msg_[a-z2-7]{26}$/);
    expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const event = verify(endpoint.secret!, hook);
    expect(event).toEqual({
      type: 'lead.created',
      timestamp: expect.any(String),
      data: {
        id: expect.any(Number),
        email: 'Ada@Example.com',
        createdAt: expect.any(String),
        consentAt: expect.any(String),
        page: { id: page.id, slug: page.slug, title: `Hooked ${n}`, url: `${gateway.config.publicOrigin}/${page.slug}` },
      },
    });
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(hook.body, hook.headers as Record<string, string>)).toThrow();

    const log = await eventually(async () => {
      const w = await webhookOf(owner, page.id);
      return w.deliveries[0]?.status === 'delivered' && w;
    });
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ id: hook.headers['webhook-id'], eventType: 'lead.created', test: false, nextAttemptAt: null });
    expect(log.deliveries[0].attempts).toEqual([
      { at: expect.any(String), url: `${receiver.origin}/hooks/signed`, status: 200, error: null, durationMs: expect.any(Number), response: 'ok' },
    ]);
  });

  it('retries a 500 with the same webhook-id until the receiver takes it', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/flaky');
    receiver.answer('/hooks/flaky', { status: 500, body: 'x'.repeat(10_000) });
    await submit(page.slug, 'retry@example.com');
    const first = await eventually(async () => receiver.on('/hooks/flaky')[0]);
    const failing = await eventually(async () => {
      const d = (await webhookOf(owner, page.id)).deliveries[0];
      return d?.status === 'failing' && d;
    });
    expect(failing.attempts).toHaveLength(1);
    expect(failing.attempts[0]).toMatchObject({ status: 500, error: null });
    expect(failing.attempts[0].response).toBe('x'.repeat(500));
    // The schedule's first retry: 5 s ± 10 %.
    const next = new Date(failing.nextAttemptAt!).getTime() - new Date(failing.attempts[0].at).getTime();
    expect(next).toBeGreaterThanOrEqual(4_400);
    expect(next).toBeLessThanOrEqual(6_500); // 5.5 s at most, plus the time the attempt took to be logged

    const hooks = await eventually(async () => receiver.on('/hooks/flaky').length === 2 && receiver.on('/hooks/flaky'), 20_000);
    expect(hooks[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(hooks[1].body).toBe(first.body);
    expect(hooks[1].at - first.at).toBeGreaterThanOrEqual(4_400);
    const delivered = await eventually(async () => {
      const d = (await webhookOf(owner, page.id)).deliveries[0];
      return d?.status === 'delivered' && d;
    });
    expect(delivered.attempts.map((a) => a.status)).toEqual([500, 200]);
  }, 40_000);

  it('sends the leads of one delivery job side by side: the one to retry is retried, the delivered one is not sent again', async () => {
    const ok = await pageKnownEverywhere('/hooks/together-ok');
    const flaky = await pageKnownEverywhere('/hooks/together-flaky');
    receiver.answer('/hooks/together-flaky', { status: 500 });
    // A job as the outbox relays the leads of one pass (leads of two pages), each lead with its request's id.
    const member = (page: { id: number; slug: string }, leadId: number, email: string) => ({
      payload: {
        v: 1 as const,
        leadId,
        pageId: page.id,
        email,
        createdAt: new Date().toISOString(),
        consentAt: null,
        page: { slug: page.slug, title: 'Together', url: `https://plink.test/${page.slug}` },
        pageVersion: 0,
        planVersion: 1,
      },
      correlationId: `together-${leadId}`,
    });
    await gateway.app.get(JobQueue).addMany([
      {
        name: 'webhook.deliver-many',
        jobId: `together-${Date.now()}`,
        envelope: {
          payload: { v: 1, jobs: [member(ok.page, 910_001, 'together.ok@example.com'), member(flaky.page, 910_002, 'together.flaky@example.com')] },
          meta: { correlationId: 'together', recordedAt: new Date().toISOString() },
        },
      },
    ]);
    const hooks = await eventually(async () => receiver.on('/hooks/together-flaky').length === 2 && receiver.on('/hooks/together-flaky'), 20_000);
    expect(hooks[1].headers['webhook-id']).toBe(hooks[0].headers['webhook-id']);
    expect(hooks[1].at - hooks[0].at).toBeGreaterThanOrEqual(4_400); // the schedule's first retry
    expect(JSON.parse(receiver.on('/hooks/together-ok')[0].body).data.email).toBe('together.ok@example.com');
    const logged = async (owner: Creator, pageId: number) =>
      (await webhookOf(owner, pageId)).deliveries.map((d) => ({ status: d.status, attempts: d.attempts.map((a) => a.status) }));
    await eventually(async () => (await logged(flaky.owner, flaky.page.id))[0]?.status === 'delivered');
    expect(await logged(flaky.owner, flaky.page.id)).toEqual([{ status: 'delivered', attempts: [500, 200] }]);
    expect(await logged(ok.owner, ok.page.id)).toEqual([{ status: 'delivered', attempts: [200] }]);
    expect(receiver.on('/hooks/together-ok')).toHaveLength(1);
  }, 40_000);

  it("honours a 429's Retry-After", async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/busy');
    receiver.answer('/hooks/busy', { status: 429, headers: { 'retry-after': '8' } });
    await submit(page.slug, 'later@example.com');
    const hooks = await eventually(async () => receiver.on('/hooks/busy').length === 2 && receiver.on('/hooks/busy'), 25_000);
    // 8 s, not the schedule's 5 s.
    expect(hooks[1].at - hooks[0].at).toBeGreaterThanOrEqual(7_900);
    expect(hooks[1].headers['webhook-id']).toBe(hooks[0].headers['webhook-id']);
  }, 40_000);

  it('does not follow a redirect: a 3xx fails the message at once', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/moved');
    receiver.answer('/hooks/moved', { status: 302, headers: { location: `${receiver.origin}/hooks/elsewhere` } });
    await submit(page.slug, 'moved@example.com');
    const failed = await eventually(async () => {
      const d = (await webhookOf(owner, page.id)).deliveries[0];
      return d?.status === 'failed' && d;
    });
    expect(failed.attempts.map((a) => a.status)).toEqual([302]);
    expect(failed.nextAttemptAt).toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.on('/hooks/elsewhere')).toHaveLength(0);
    expect(receiver.on('/hooks/moved')).toHaveLength(1);
  });

  it('410 Gone turns the webhook off at once and e-mails the owner; Re-enable turns it back on', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/gone');
    receiver.answer('/hooks/gone', { status: 410 });
    await submit(page.slug, 'gone@example.com');
    const off = await eventually(async () => {
      const w = await webhookOf(owner, page.id);
      return !w.enabled && w;
    });
    expect(off.disabledReason).toBe(WebhookMessages.disabledGone);
    expect(off.deliveries[0]).toMatchObject({ status: 'failed' });
    const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(owner.email) && /^Webhook turned off/.test(m.subject));
    expect(mail.text).toContain('410 Gone');
    expect(mail.text).toContain(`/editor/${page.id}`);

    // While off, new leads are kept but not sent.
    await eventually(async () => (await submit(page.slug, `off-${Date.now()}@example.com`)).status === 200);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.on('/hooks/gone')).toHaveLength(1);

    const enabled = await owner.browser.post(`/api/pages/${page.id}/webhook/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    await submit(page.slug, 'back@example.com');
    const hooks = await eventually(async () => receiver.on('/hooks/gone').length === 2 && receiver.on('/hooks/gone'));
    expect(JSON.parse(hooks[1].body).data.email).toBe('back@example.com');
  });

  it('three messages in a row that fail for good turn the webhook off, and the owner is e-mailed', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/refusing');
    receiver.answer('/hooks/refusing', { status: 400 }, { status: 400 }, { status: 400 });
    for (let i = 1; i <= 3; i++) {
      await submit(page.slug, `refused-${i}@example.com`);
      await eventually(async () => (await webhookOf(owner, page.id)).deliveries.filter((d) => d.status === 'failed').length === i);
      if (i < 3) expect((await webhookOf(owner, page.id)).enabled).toBe(true);
    }
    const off = await eventually(async () => {
      const w = await webhookOf(owner, page.id);
      return !w.enabled && w;
    });
    expect(off.disabledReason).toBe(WebhookMessages.disabledExhausted);
    const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(owner.email) && /^Webhook turned off/.test(m.subject));
    expect(mail.text).toContain('three new leads in a row could not be delivered');
  });

  it('an endpoint whose every attempt failed for 24 hours is turned off at its next failure', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/down-for-a-day');
    // Its history: on for two days, and a failed attempt 25 hours ago with no success since. Deliveries read the
    // notifications service's copy of the endpoint: once it has the page, it is given the same history.
    await gateway.db.query("update pages.pages set webhook_enabled_at = now() - interval '2 days' where id = $1", [page.id]);
    await eventually(async () => (await gateway.db.query('select 1 from notifications.webhook_endpoints where page_id = $1', [page.id])).rowCount === 1);
    await gateway.db.query("update notifications.webhook_endpoints set enabled_at = now() - interval '2 days' where page_id = $1", [page.id]);
    await gateway.db.query(
      `insert into notifications.webhook_messages (id, page_id, lead_id, event_type, body, status, created_at, finished_at)
       values ('msg_yesterdayyesterdayyesterd', $1, null, 'lead.created', '{}', 'failed', now() - interval '25 hours', now() - interval '20 hours')`,
      [page.id],
    );
    await gateway.db.query(
      `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
       values ('msg_yesterdayyesterdayyesterd', $1, now() - interval '25 hours', 'http://example.invalid/', 503, 10, false)`,
      [page.id],
    );
    receiver.answer('/hooks/down-for-a-day', { status: 503 });
    await submit(page.slug, 'still-down@example.com');
    const off = await eventually(async () => {
      const w = await webhookOf(owner, page.id);
      return !w.enabled && w;
    });
    expect(off.disabledReason).toBe(WebhookMessages.disabledFailing);
    expect(off.deliveries.find((d) => !d.id.startsWith('msg_yesterday'))).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('an attempt that gets no answer in 10 s is a timeout, retried later', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/slow');
    receiver.answer('/hooks/slow', 'hang');
    await submit(page.slug, 'slow@example.com');
    const failing = await eventually(async () => {
      const d = (await webhookOf(owner, page.id)).deliveries[0];
      return d?.status === 'failing' && d;
    }, 20_000);
    expect(failing.attempts[0]).toMatchObject({ status: null, error: 'timeout after 10 s' });
    expect(failing.attempts[0].durationMs).toBeGreaterThanOrEqual(9_900);
    expect(failing.nextAttemptAt).not.toBeNull();
  }, 30_000);

  it('a URL changed while a message is retried: the retry goes to the new URL', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/old');
    receiver.answer('/hooks/old', { status: 503 });
    await submit(page.slug, 'moving@example.com');
    const [old] = await eventually(async () => receiver.on('/hooks/old').length === 1 && receiver.on('/hooks/old'));
    const saved = await owner.browser.request('PUT', `/api/pages/${page.id}`, { webhookUrl: `${receiver.origin}/hooks/new` });
    expect(saved.status).toBe(200);
    const [moved] = await eventually(async () => receiver.on('/hooks/new').length === 1 && receiver.on('/hooks/new'), 20_000);
    expect(moved.headers['webhook-id']).toBe(old.headers['webhook-id']);
    expect(receiver.on('/hooks/old')).toHaveLength(1);
  }, 40_000);

  it("a lead that reaches delivery before the page's endpoint does waits for it, then is delivered", async () => {
    const { owner, page } = await pageKnownEverywhere('/hooks/early');
    // As when the visitor submits the moment the URL is saved: the delivery service has not heard of the endpoint yet.
    await gateway.db.query('delete from notifications.webhook_endpoints where page_id = $1', [page.id]);
    expect((await submit(page.slug, 'early@example.com')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/hooks/early')).toHaveLength(0);
    expect((await webhookOf(owner, page.id)).deliveries).toEqual([]);

    // The endpoint reaches the service (here: the owner saves a new URL): the waiting lead goes to it, once.
    const saved = await owner.browser.request('PUT', `/api/pages/${page.id}`, { webhookUrl: `${receiver.origin}/hooks/early-arrived` });
    expect(saved.status).toBe(200);
    const [hook] = await eventually(async () => receiver.on('/hooks/early-arrived').length === 1 && receiver.on('/hooks/early-arrived'));
    const { secret } = await webhookOf(owner, page.id);
    expect(verify(secret!, hook).data.email).toBe('early@example.com');
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.on('/hooks/early-arrived')).toHaveLength(1);
    expect(receiver.on('/hooks/early')).toHaveLength(0);
  });

  it('a lead captured just after its webhook was turned on, before the delivery service has heard, waits for it, then is delivered', async () => {
    const { owner, page } = await pageKnownEverywhere('/hooks/turned-on');
    // The leads service has the page's newer facts (webhook on); the delivery service's copy still holds the
    // endpoint as it was before that change (off), as when the page's two messages arrive in this order.
    await gateway.db.query("update notifications.webhook_endpoints set enabled = false, changed_at = now() - interval '1 minute' where page_id = $1", [page.id]);
    expect((await submit(page.slug, 'turned-on@example.com')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/hooks/turned-on')).toHaveLength(0);
    expect((await webhookOf(owner, page.id)).deliveries).toEqual([]);

    // The change reaches the copy: the waiting lead is delivered, once.
    await gateway.db.query('update notifications.webhook_endpoints set enabled = true, changed_at = now() where page_id = $1', [page.id]);
    const [hook] = await eventually(async () => receiver.on('/hooks/turned-on').length === 1 && receiver.on('/hooks/turned-on'));
    expect(JSON.parse(hook.body).data.email).toBe('turned-on@example.com');
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.on('/hooks/turned-on')).toHaveLength(1);
  });

  it('drops a lead whose endpoint was turned off after its capture', async () => {
    const { owner, page } = await pageKnownEverywhere('/hooks/later-off');
    // The copy already knows of an endpoint change newer than the facts the capture will use (turned off).
    await gateway.db.query("update notifications.webhook_endpoints set enabled = false, changed_at = now() + interval '1 minute' where page_id = $1", [page.id]);
    expect((await submit(page.slug, 'later-off@example.com')).status).toBe(200);
    // Not waiting: the lead's job ends at once (completed, none of this page's left to run), and nothing is sent.
    const webhooksQueue = gateway.app.get(JobQueue).queue(QueueName.Webhooks);
    const ofThisPage = (jobs: Job<JobEnvelope>[]) =>
      jobs.filter(
        (job) => job.name === 'webhook.deliver-many' && (job.data.payload as JobPayload<'webhook.deliver-many'>).jobs.some((m) => m.payload.pageId === page.id),
      );
    await eventually(async () => ofThisPage(await webhooksQueue.getCompleted()).length === 1);
    expect(ofThisPage(await webhooksQueue.getJobs(['waiting', 'active', 'delayed', 'prioritized']))).toEqual([]);
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.on('/hooks/later-off')).toHaveLength(0);
    expect((await webhookOf(owner, page.id)).deliveries).toEqual([]);
  });

  it('sends nothing once the owner is no longer Pro, and the calls answer 403', async () => {
    const { owner, page } = await pageKnownEverywhere('/hooks/downgraded');
    expect((await plink(['revoke-pro', owner.email])).code).toBe(0);
    await eventually(async () => (await owner.browser.get('/api/user')).body.isPremium === false);
    // The leads service decides at capture whether a lead gets a webhook, from the owner's plan it keeps from
    // billing's 'plan.changed' (one hop): once its copy has the downgrade, no lead is sent.
    const plan = async () => (await gateway.db.query('select is_pro from leads.owner_plans where owner_id = $1', [owner.id])).rows[0];
    await eventually(async () => (await plan())?.is_pro === false);
    await submit(page.slug, 'after-downgrade@example.com');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/hooks/downgraded')).toHaveLength(0);
    const shown = await owner.browser.get(`/api/pages/${page.id}/webhook`);
    expect(shown.status).toBe(403);
    expect(shown.body.message).toBe(WebhookMessages.proOnly);
  });

  it("answers 404 for another creator's page", async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/private');
    const stranger = await creator();
    expect((await stranger.browser.get(`/api/pages/${page.id}/webhook`)).status).toBe(404);
    expect((await stranger.browser.post(`/api/pages/${page.id}/webhook/test`)).status).toBe(404);
    expect((await stranger.browser.post(`/api/pages/${page.id}/webhook/rotate-secret`)).status).toBe(404);
  });

  it('sends a test event on request, redelivers a message with its webhook-id, and rotates the secret (both sign for a day)', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/test');
    const before = await webhookOf(owner, page.id);
    const tested = await owner.browser.post(`/api/pages/${page.id}/webhook/test`);
    expect(tested.status).toBe(200);
    const delivery = tested.body.delivery as WebhookDeliveryDto;
    expect(delivery).toMatchObject({ status: 'delivered', test: true, eventType: 'lead.created' });
    expect(delivery.attempts).toHaveLength(1);
    const [hook] = receiver.on('/hooks/test');
    const event = verify(before.secret!, hook);
    expect(event).toMatchObject({ type: 'lead.created', test: true, data: { email: 'jane.doe@example.com', page: { id: page.id } } });

    const again = await owner.browser.post(`/api/pages/${page.id}/webhook/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    const hooks = await eventually(async () => receiver.on('/hooks/test').length === 2 && receiver.on('/hooks/test'));
    expect(hooks[1].headers['webhook-id']).toBe(delivery.id);
    expect(hooks[1].body).toBe(hook.body);
    expect((await owner.browser.post(`/api/pages/${page.id}/webhook/deliveries/msg_aaaaaaaaaaaaaaaaaaaaaaaaaa/redeliver`)).status).toBe(404);

    const rotated = await owner.browser.post(`/api/pages/${page.id}/webhook/rotate-secret`);
    expect(rotated.status).toBe(200);
    const [fresh, previous] = (rotated.body.secret as string).split(' ');
    expect(previous).toBe(before.secret);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(before.secret);
    await submit(page.slug, 'rotated@example.com');
    const [, , third] = await eventually(async () => receiver.on('/hooks/test').length === 3 && receiver.on('/hooks/test'));
    expect(String(third.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, third).data.email).toBe('rotated@example.com');
    expect(verify(previous, third).data.email).toBe('rotated@example.com');
  });

  it('limits test events and redeliveries to 30 a minute per page (each is a request to the receiver)', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/limited');
    // 61 calls span at most two minute windows, so one of them sees a 31st call.
    const answers: { status: number; body: any; headers: Headers }[] = [];
    for (let i = 0; i < 61; i++) answers.push(await owner.browser.post(`/api/pages/${page.id}/webhook/test`));
    const refused = answers.filter((a) => a.status === 429);
    const sent = answers.filter((a) => a.status === 200);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeGreaterThanOrEqual(30);
    expect(sent.length + refused.length).toBe(61);
    for (const a of refused) {
      expect(a.body.message).toBe(WebhookMessages.tooManySends);
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(receiver.on('/hooks/limited')).toHaveLength(sent.length);
  });

  it('the clean-up drops messages older than 30 days with their attempts, and keeps the newer ones', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/old-log');
    const logged = async (id: string, age: string) => {
      await gateway.db.query(
        `insert into notifications.webhook_messages (id, page_id, event_type, is_test, body, status, created_at, finished_at)
         values ($1, $2, 'lead.created', true, '{}', 'delivered', now() - $3::interval, now() - $3::interval)`,
        [id, page.id, age],
      );
      await gateway.db.query(
        `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
         values ($1, $2, now() - $3::interval, 'http://example.invalid/', 200, 10, true)`,
        [id, page.id, age],
      );
    };
    await logged('msg_oldoldoldoldoldoldoldoldol', '31 days');
    await logged('msg_newnewnewnewnewnewnewnewne', '29 days');
    // An attempt left without its message (a write cut off halfway: attempts have no foreign key) goes too.
    await gateway.db.query(
      `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
       values ('msg_orphanorphanorphanorphanor', $1, now(), 'http://example.invalid/', 200, 10, true)`,
      [page.id],
    );
    // The repeatable job's run, recorded as the platform records any job.
    await gateway.db.query(
      `insert into platform.outbox (id, queue, job_name, payload, correlation_id)
       values (gen_random_uuid(), 'webhooks', 'webhook.clean-log', '{"v": 1}', 'webhook-log-clean-up-test')`,
    );
    const attemptsOf = async (id: string) =>
      (await gateway.db.query('select count(*)::int as n from notifications.webhook_attempts where message_id = $1', [id])).rows[0].n as number;
    await eventually(async () => (await attemptsOf('msg_oldoldoldoldoldoldoldoldol')) === 0);
    await eventually(async () => (await attemptsOf('msg_orphanorphanorphanorphanor')) === 0);
    expect((await webhookOf(owner, page.id)).deliveries.map((d) => d.id)).toEqual(['msg_newnewnewnewnewnewnewnewne']);
    expect(await attemptsOf('msg_newnewnewnewnewnewnewnewne')).toBe(1);
  });

  it('delivers 1,000 leads, each exactly once', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/many');
    const started = Date.now();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => submit(page.slug, `many-${batch * 100 + i}@example.com`)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    await eventually(async () => receiver.on('/hooks/many').length >= 1_000, 60_000);
    console.log(`1,000 leads → 1,000 webhooks in ${Date.now() - started} ms`);
    await new Promise((r) => setTimeout(r, 500));
    const hooks = receiver.on('/hooks/many');
    expect(hooks).toHaveLength(1_000);
    expect(new Set(hooks.map((h) => h.headers['webhook-id'])).size).toBe(1_000);
    expect(new Set(hooks.map((h) => JSON.parse(h.body).data.email)).size).toBe(1_000);
    const log = await webhookOf(owner, page.id);
    expect(log.deliveries).toHaveLength(100); // the 100 newest are kept
  }, 90_000);
});
