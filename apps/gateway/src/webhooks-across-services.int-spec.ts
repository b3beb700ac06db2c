import { Webhook } from 'standardwebhooks';
import { WebhookMessages, type LeadCreatedEvent, type WebhookDto } from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { SmtpCatcher, type CaughtMail, WebhookReceiver, type ReceivedWebhook, eventually } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { WEBHOOK_TEST_SETTINGS, startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Webhooks across the services, as a Pro creator and their receiver see them: the whole gateway with every
 * worker in-process (real PostgreSQL, Redis, SMTP), and a real HTTP receiver on 127.0.0.1 (allowed by
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS). A lead goes from the public form (leads) to the receiver (notifications);
 * a failing receiver has the page's webhook turned off (pages) and its owner e-mailed; the editor's webhook
 * settings (pages) and the owner's plan (billing) take effect in the deliveries. The delivery itself (retries,
 * signatures, the log, the waits for the endpoint's copy) is tested in the notifications service.
 */
describe('webhooks, end to end across the services', () => {
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
        // Submitted straight (no referrer, no campaign) by a client that is no phone or tablet.
        source: { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null, device: 'desktop' },
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

  it('rotating the secret in the editor answers both secrets, and the next lead is signed with both (for a day)', async () => {
    const owner = await creator();
    const page = await pageWithWebhook(owner, '/hooks/test');
    const before = await webhookOf(owner, page.id);
    const rotated = await owner.browser.post(`/api/pages/${page.id}/webhook/rotate-secret`);
    expect(rotated.status).toBe(200);
    const [fresh, previous] = (rotated.body.secret as string).split(' ');
    expect(previous).toBe(before.secret);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(before.secret);
    // The delivery service signs with its copy of the endpoint, which the rotation reaches one hop later (a lead
    // taken within those milliseconds is signed with the previous secret alone, which stays valid for the day).
    const copy = async () => (await gateway.db.query('select previous_secret from notifications.webhook_endpoints where page_id = $1', [page.id])).rows[0];
    await eventually(async () => !!(await copy())?.previous_secret);
    await submit(page.slug, 'rotated@example.com');
    const [third] = await eventually(async () => receiver.on('/hooks/test').length === 1 && receiver.on('/hooks/test'));
    expect(String(third.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, third).data.email).toBe('rotated@example.com');
    expect(verify(previous, third).data.email).toBe('rotated@example.com');
  });
});
