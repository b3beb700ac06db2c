import { Webhook } from 'standardwebhooks';
import type { Job } from 'bullmq';
import { QueueName, WebhookMessages, type JobEnvelope, type JobPayload, type LeadCreatedEvent, type WebhookDeliveryDto } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { WebhookReceiver, type ReceivedWebhook, eventually } from '@plink/testing';
import { NotificationsTestApp, type Creator, type TestPage } from '../testing/notifications-test-app';

/**
 * Webhooks as a Pro creator and their receiver see them, at the notifications service: its webhook calls
 * mounted as the gateway mounts them and its worker running (real PostgreSQL, Redis), the pages' endpoints
 * published and the leads' deliveries recorded as the pages and leads services do, and a real HTTP receiver
 * on 127.0.0.1 (allowed by WEBHOOK_ALLOW_PRIVATE_NETWORKS). Turning a webhook off is the pages service's part
 * (asked for with a `pages.disable-webhook` job, done here as it does it); the owner's e-mail about it, and a
 * lead's way from the public form to the receiver, are tested across the services in the gateway.
 *
 * @run-alone: it checks the retry schedule to the second and delivers 1,000 messages within a minute.
 */
describe('webhooks, delivered by the notifications service', () => {
  let t: NotificationsTestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await NotificationsTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  /** A Pro creator's page with its webhook on `path` of the receiver, once the service's copy holds it. */
  async function pageWithWebhook(path: string, owner?: Creator): Promise<{ owner: Creator; page: TestPage }> {
    owner ??= await t.creator();
    const page = await t.pages.create(owner.id, `${receiver.origin}${path}`);
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === true);
    return { owner, page };
  }

  const webhookOf = (owner: Creator, pageId: number) => t.webhookOf(owner, pageId);
  const verify = (secret: string, hook: ReceivedWebhook) =>
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as LeadCreatedEvent;

  it('delivers a new lead, signed per Standard Webhooks, and logs it for the owner', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/signed');
    const endpoint = await webhookOf(owner, page.id);
    expect(endpoint).toMatchObject({ url: `${receiver.origin}/hooks/signed`, enabled: true, disabledReason: null, deliveries: [] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    // The copy keeps it sealed: the database alone does not give the secret away.
    const stored = (await t.db.query('select secret from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0].secret as string;
    expect(stored).not.toContain(endpoint.secret!.slice(6));
    expect(stored).not.toContain('whsec_');

    const recorded = Date.now();
    const lead = await t.deliverLead(page, 'Ada@Example.com');
    const [hook] = await eventually(async () => receiver.on('/hooks/signed').length === 1 && receiver.on('/hooks/signed'));
    console.log(`delivery recorded → webhook received: ${hook.at - recorded} ms`);

    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toBe('Plink-Webhooks/1');
    expect(hook.headers['webhook-id']).toMatch(/^msg_[a-z2-7]{26}$/);
    expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const event = verify(endpoint.secret!, hook);
    expect(event).toEqual({
      type: 'lead.created',
      timestamp: expect.any(String),
      data: {
        id: lead.leadId,
        email: 'Ada@Example.com',
        createdAt: lead.createdAt,
        consentAt: lead.consentAt,
        page: { id: page.id, slug: page.slug, title: page.title, url: `${t.config.publicOrigin}/${page.slug}` },
        // The job of this lead carries no source (as jobs recorded before sources were kept): every value null.
        source: { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null, device: null },
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
    const { owner, page } = await pageWithWebhook('/hooks/flaky');
    receiver.answer('/hooks/flaky', { status: 500, body: 'x'.repeat(10_000) });
    await t.deliverLead(page, 'retry@example.com');
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
    const ok = await pageWithWebhook('/hooks/together-ok');
    const flaky = await pageWithWebhook('/hooks/together-flaky');
    receiver.answer('/hooks/together-flaky', { status: 500 });
    // A job as the outbox relays the leads of one pass (leads of two pages), each lead with its request's id.
    const member = (page: TestPage, email: string) => {
      const payload = t.leadDelivery(page, email);
      return { payload, correlationId: `together-${payload.leadId}` };
    };
    await t.app.get(JobQueue).addMany([
      {
        name: 'webhook.deliver-many',
        jobId: `together-${Date.now()}`,
        envelope: {
          payload: { v: 1, jobs: [member(ok.page, 'together.ok@example.com'), member(flaky.page, 'together.flaky@example.com')] },
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
    const { page } = await pageWithWebhook('/hooks/busy');
    receiver.answer('/hooks/busy', { status: 429, headers: { 'retry-after': '8' } });
    await t.deliverLead(page, 'later@example.com');
    const hooks = await eventually(async () => receiver.on('/hooks/busy').length === 2 && receiver.on('/hooks/busy'), 25_000);
    // 8 s, not the schedule's 5 s.
    expect(hooks[1].at - hooks[0].at).toBeGreaterThanOrEqual(7_900);
    expect(hooks[1].headers['webhook-id']).toBe(hooks[0].headers['webhook-id']);
  }, 40_000);

  it('does not follow a redirect: a 3xx fails the message at once', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/moved');
    receiver.answer('/hooks/moved', { status: 302, headers: { location: `${receiver.origin}/hooks/elsewhere` } });
    await t.deliverLead(page, 'moved@example.com');
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

  it('410 Gone has the pages service turn the webhook off at once; while off nothing is sent; turned on again, leads go', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/gone');
    receiver.answer('/hooks/gone', { status: 410 });
    await t.deliverLead(page, 'gone@example.com');
    const [asked] = await eventually(async () => {
      const requests = await t.disableRequests(page.id);
      return requests.length > 0 && requests;
    });
    expect(asked).toEqual({ v: 1, pageId: page.id, url: `${receiver.origin}/hooks/gone`, reason: 'gone' });
    expect((await webhookOf(owner, page.id)).deliveries[0]).toMatchObject({ status: 'failed' });

    // The pages service turns it off (its 'webhook-endpoint.changed' reaches the copy); the panel shows why.
    await t.pages.change(page, { disabledReason: 'gone' });
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === false);
    const off = await webhookOf(owner, page.id);
    expect(off).toMatchObject({ enabled: false, disabledReason: WebhookMessages.disabledGone });

    // While off, new leads are not sent.
    await t.deliverLead(page, `off-${Date.now()}@example.com`);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.on('/hooks/gone')).toHaveLength(1);

    // The owner turns it back on (in the page editor, the pages service's call): the next lead goes.
    await t.pages.change(page, { disabledReason: null });
    await t.deliverLead(page, 'back@example.com');
    const hooks = await eventually(async () => receiver.on('/hooks/gone').length === 2 && receiver.on('/hooks/gone'));
    expect(JSON.parse(hooks[1].body).data.email).toBe('back@example.com');
    expect(await t.disableRequests(page.id)).toHaveLength(1);
  });

  it('three messages in a row that fail for good have the webhook turned off', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/refusing');
    receiver.answer('/hooks/refusing', { status: 400 }, { status: 400 }, { status: 400 });
    for (let i = 1; i <= 3; i++) {
      await t.deliverLead(page, `refused-${i}@example.com`);
      await eventually(async () => (await webhookOf(owner, page.id)).deliveries.filter((d) => d.status === 'failed').length === i);
      if (i < 3) expect(await t.disableRequests(page.id)).toEqual([]);
    }
    const [asked] = await eventually(async () => {
      const requests = await t.disableRequests(page.id);
      return requests.length > 0 && requests;
    });
    expect(asked).toEqual({ v: 1, pageId: page.id, url: `${receiver.origin}/hooks/refusing`, reason: 'exhausted' });
  });

  it('an endpoint whose every attempt failed for 24 hours is turned off at its next failure', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/down-for-a-day');
    // Its history: on for two days, and a failed attempt 25 hours ago with no success since.
    await t.pages.change(page, { enabledAt: new Date(Date.now() - 2 * 86_400_000) });
    await eventually(
      async () => (await t.db.query("select 1 from notifications.webhook_endpoints where page_id = $1 and enabled_at < now() - interval '1 day'", [page.id])).rowCount === 1,
    );
    await t.db.query(
      `insert into notifications.webhook_messages (id, page_id, lead_id, event_type, body, status, created_at, finished_at)
       values ('msg_yesterdayyesterdayyesterd', $1, null, 'lead.created', '{}', 'failed', now() - interval '25 hours', now() - interval '20 hours')`,
      [page.id],
    );
    await t.db.query(
      `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
       values ('msg_yesterdayyesterdayyesterd', $1, now() - interval '25 hours', 'http://example.invalid/', 503, 10, false)`,
      [page.id],
    );
    receiver.answer('/hooks/down-for-a-day', { status: 503 });
    await t.deliverLead(page, 'still-down@example.com');
    const [asked] = await eventually(async () => {
      const requests = await t.disableRequests(page.id);
      return requests.length > 0 && requests;
    });
    expect(asked).toEqual({ v: 1, pageId: page.id, url: `${receiver.origin}/hooks/down-for-a-day`, reason: 'failing' });
    const deliveries = (await webhookOf(owner, page.id)).deliveries;
    expect(deliveries.find((d) => !d.id.startsWith('msg_yesterday'))).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('an attempt that gets no answer in 10 s is a timeout, retried later', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/slow');
    receiver.answer('/hooks/slow', 'hang');
    await t.deliverLead(page, 'slow@example.com');
    const failing = await eventually(async () => {
      const d = (await webhookOf(owner, page.id)).deliveries[0];
      return d?.status === 'failing' && d;
    }, 20_000);
    expect(failing.attempts[0]).toMatchObject({ status: null, error: 'timeout after 10 s' });
    expect(failing.attempts[0].durationMs).toBeGreaterThanOrEqual(9_900);
    expect(failing.nextAttemptAt).not.toBeNull();
  }, 30_000);

  it('a URL changed while a message is retried: the retry goes to the new URL', async () => {
    const { page } = await pageWithWebhook('/hooks/old');
    receiver.answer('/hooks/old', { status: 503 });
    await t.deliverLead(page, 'moving@example.com');
    const [old] = await eventually(async () => receiver.on('/hooks/old').length === 1 && receiver.on('/hooks/old'));
    await t.pages.change(page, { url: `${receiver.origin}/hooks/new` });
    const [moved] = await eventually(async () => receiver.on('/hooks/new').length === 1 && receiver.on('/hooks/new'), 20_000);
    expect(moved.headers['webhook-id']).toBe(old.headers['webhook-id']);
    expect(receiver.on('/hooks/old')).toHaveLength(1);
  }, 40_000);

  it("a lead that reaches delivery before the page's endpoint does waits for it, then is delivered", async () => {
    const owner = await t.creator();
    // As when the visitor submits the moment the URL is saved: the page's endpoint has not reached the service.
    const page = await t.pages.create(owner.id, `${receiver.origin}/hooks/early`, { publish: false });
    await t.deliverLead(page, 'early@example.com');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/hooks/early')).toHaveLength(0);
    expect((await webhookOf(owner, page.id)).deliveries).toEqual([]);

    // The endpoint reaches the service (here: with a new URL the owner saved since): the waiting lead goes to it, once.
    await t.pages.change(page, { url: `${receiver.origin}/hooks/early-arrived` });
    const [hook] = await eventually(async () => receiver.on('/hooks/early-arrived').length === 1 && receiver.on('/hooks/early-arrived'));
    const { secret } = await webhookOf(owner, page.id);
    expect(verify(secret!, hook).data.email).toBe('early@example.com');
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.on('/hooks/early-arrived')).toHaveLength(1);
    expect(receiver.on('/hooks/early')).toHaveLength(0);
  });

  it('a lead captured just after its webhook was turned on, before the delivery service has heard, waits for it, then is delivered', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/turned-on');
    await t.pages.change(page, { disabledReason: 'gone' });
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === false);
    // The capture read the page's newer facts (webhook on); the copy still holds the endpoint as it was before
    // that change (off), as when the page's two messages arrive in this order.
    await t.pages.change(page, { disabledReason: null }, { publish: false });
    await t.deliverLead(page, 'turned-on@example.com');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.on('/hooks/turned-on')).toHaveLength(0);
    expect((await webhookOf(owner, page.id)).deliveries).toEqual([]);

    // The change reaches the copy: the waiting lead is delivered, once.
    await t.pages.publish(page);
    const [hook] = await eventually(async () => receiver.on('/hooks/turned-on').length === 1 && receiver.on('/hooks/turned-on'));
    expect(JSON.parse(hook.body).data.email).toBe('turned-on@example.com');
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.on('/hooks/turned-on')).toHaveLength(1);
  });

  it('drops a lead whose endpoint was turned off after its capture', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/later-off');
    const capturedAt = page.version;
    // The copy already knows of an endpoint change newer than the facts the capture used (turned off).
    await t.pages.change(page, { disabledReason: 'gone' });
    await eventually(async () => (await t.db.query('select enabled from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.enabled === false);
    await t.deliverLead(page, 'later-off@example.com', { pageVersion: capturedAt });
    // Not waiting: the lead's job ends at once (completed, none of this page's left to run), and nothing is sent.
    const webhooksQueue = t.app.get(JobQueue).queue(QueueName.Webhooks);
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

  it('answers 403 to an owner who is no longer Pro', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/downgraded');
    await t.signIns.setPremium(owner.id, false);
    for (const answer of [
      await owner.client.get(`/api/pages/${page.id}/webhook`),
      await owner.client.post(`/api/pages/${page.id}/webhook/test`),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(WebhookMessages.proOnly);
    }
    expect(receiver.on('/hooks/downgraded')).toHaveLength(0);
  });

  it("answers 404 for another creator's page", async () => {
    const { page } = await pageWithWebhook('/hooks/private');
    const stranger = await t.creator();
    expect((await stranger.client.get(`/api/pages/${page.id}/webhook`)).status).toBe(404);
    expect((await stranger.client.post(`/api/pages/${page.id}/webhook/test`)).status).toBe(404);
    expect((await stranger.client.post(`/api/pages/${page.id}/webhook/deliveries/msg_aaaaaaaaaaaaaaaaaaaaaaaaaa/redeliver`)).status).toBe(404);
  });

  it('sends a test event on request, redelivers a message with its webhook-id, and signs with both secrets for a day after a rotation', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/test');
    const before = await webhookOf(owner, page.id);
    const tested = await owner.client.post(`/api/pages/${page.id}/webhook/test`);
    expect(tested.status).toBe(200);
    const delivery = tested.body.delivery as WebhookDeliveryDto;
    expect(delivery).toMatchObject({ status: 'delivered', test: true, eventType: 'lead.created' });
    expect(delivery.attempts).toHaveLength(1);
    const [hook] = receiver.on('/hooks/test');
    const event = verify(before.secret!, hook);
    expect(event).toMatchObject({ type: 'lead.created', test: true, data: { email: 'jane.doe@example.com', page: { id: page.id } } });

    const again = await owner.client.post(`/api/pages/${page.id}/webhook/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    const hooks = await eventually(async () => receiver.on('/hooks/test').length === 2 && receiver.on('/hooks/test'));
    expect(hooks[1].headers['webhook-id']).toBe(delivery.id);
    expect(hooks[1].body).toBe(hook.body);
    expect((await owner.client.post(`/api/pages/${page.id}/webhook/deliveries/msg_aaaaaaaaaaaaaaaaaaaaaaaaaa/redeliver`)).status).toBe(404);

    // The pages service rotates the secret: the panel shows both, and a lead is signed with both.
    await t.pages.rotateSecret(page);
    const [fresh, previous] = (await webhookOf(owner, page.id)).secret!.split(' ');
    expect(previous).toBe(before.secret);
    expect(fresh).not.toBe(before.secret);
    await eventually(async () => (await t.db.query('select previous_secret from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0]?.previous_secret);
    await t.deliverLead(page, 'rotated@example.com');
    const [, , third] = await eventually(async () => receiver.on('/hooks/test').length === 3 && receiver.on('/hooks/test'));
    expect(String(third.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, third).data.email).toBe('rotated@example.com');
    expect(verify(previous, third).data.email).toBe('rotated@example.com');
  });

  it('limits test events and redeliveries to 30 a minute per page (each is a request to the receiver)', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/limited');
    // 61 calls span at most two minute windows, so one of them sees a 31st call.
    const answers: { status: number; body: any; headers: Headers }[] = [];
    for (let i = 0; i < 61; i++) answers.push(await owner.client.post(`/api/pages/${page.id}/webhook/test`));
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
    const { owner, page } = await pageWithWebhook('/hooks/old-log');
    const logged = async (id: string, age: string) => {
      await t.db.query(
        `insert into notifications.webhook_messages (id, page_id, event_type, is_test, body, status, created_at, finished_at)
         values ($1, $2, 'lead.created', true, '{}', 'delivered', now() - $3::interval, now() - $3::interval)`,
        [id, page.id, age],
      );
      await t.db.query(
        `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
         values ($1, $2, now() - $3::interval, 'http://example.invalid/', 200, 10, true)`,
        [id, page.id, age],
      );
    };
    await logged('msg_oldoldoldoldoldoldoldoldol', '31 days');
    await logged('msg_newnewnewnewnewnewnewnewne', '29 days');
    // An attempt left without its message (a write cut off halfway: attempts have no foreign key) goes too.
    await t.db.query(
      `insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, duration_ms, succeeded)
       values ('msg_orphanorphanorphanorphanor', $1, now(), 'http://example.invalid/', 200, 10, true)`,
      [page.id],
    );
    // The repeatable job's run, recorded as the platform records any job.
    await t.db.query(
      `insert into platform.outbox (id, queue, job_name, payload, correlation_id)
       values (gen_random_uuid(), 'webhooks', 'webhook.clean-log', '{"v": 1}', 'webhook-log-clean-up-test')`,
    );
    const attemptsOf = async (id: string) =>
      (await t.db.query('select count(*)::int as n from notifications.webhook_attempts where message_id = $1', [id])).rows[0].n as number;
    await eventually(async () => (await attemptsOf('msg_oldoldoldoldoldoldoldoldol')) === 0);
    await eventually(async () => (await attemptsOf('msg_orphanorphanorphanorphanor')) === 0);
    expect((await webhookOf(owner, page.id)).deliveries.map((d) => d.id)).toEqual(['msg_newnewnewnewnewnewnewnewne']);
    expect(await attemptsOf('msg_newnewnewnewnewnewnewnewne')).toBe(1);
  });

  it('delivers 1,000 leads, each exactly once', async () => {
    const { owner, page } = await pageWithWebhook('/hooks/many');
    const started = Date.now();
    for (let batch = 0; batch < 10; batch++) {
      await t.deliverLeads(page, Array.from({ length: 100 }, (_, i) => `many-${batch * 100 + i}@example.com`));
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
