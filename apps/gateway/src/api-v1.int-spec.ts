import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Webhook } from 'standardwebhooks';
import {
  ApiTokenMessages,
  apiTokenListSchema,
  createdApiTokenSchema,
  createdHookSchema,
  hookListSchema,
  hooksWithDeliveriesSchema,
  v1CreatedLeadSchema,
  v1LeadListSchema,
  v1MeSchema,
  v1PageListSchema,
  type LeadCreatedEvent,
} from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { loadConfig } from '@plink/config';
import { WebhookReceiver, eventually, listenOnLoopback } from '@plink/testing';
import { createGateway } from './bootstrap';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { WEBHOOK_TEST_SETTINGS, startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The versioned API as an automation tool uses it, across the services: a token made in Settings (identity),
 * the user's pages (pages), leads listed and added (leads), hook subscriptions delivered with the page
 * webhooks' engine (notifications) to a real receiver on 127.0.0.1. Every answer is checked against the zod
 * schema the OpenAPI document is generated from.
 */
describe('/api/v1 with API tokens', () => {
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let n = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    gateway = await startTestGateway({ ...WEBHOOK_TEST_SETTINGS });
  });

  afterAll(async () => {
    await gateway?.close();
    await receiver?.stop();
  });

  interface Creator {
    id: number;
    email: string;
    username: string;
    browser: TestBrowser;
    token: string;
  }

  /** A verified creator with an API token; made Pro by the operator's command unless `free`. */
  async function creator(free = false): Promise<Creator> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `api_${tag}`, email: `api.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    if (!free) {
      const code = await runPlinkCommand(['grant-pro', who.email], { out: () => undefined, err: () => undefined, env: gateway.env.vars }, identityUsers);
      expect(code).toBe(0);
      await eventually(async () => (await browser.get('/api/user')).body.isPremium === true);
    }
    const made = await browser.post('/api/tokens', { name: 'Zapier' });
    expect(made.status).toBe(201);
    return { id: registered.body.id, email: who.email, username: who.username, browser, token: made.body.token };
  }

  const call = (token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> =>
    fetch(gateway.origin + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    }).then(async (res) => ({ status: res.status, headers: res.headers, body: res.status === 204 ? undefined : await res.json() }));

  async function page(owner: Creator): Promise<{ id: number; slug: string }> {
    const slug = `api-${n}-${Date.now().toString(36)}`;
    const created = await owner.browser.post('/api/pages', { slug, title: `Api ${n}`, hidePrivacyPolicyCheckbox: true });
    expect(created.status).toBe(201);
    return { id: created.body.id, slug };
  }

  /** The body's `lead.created` after checking its Standard Webhooks signature with `secret`. */
  function verified(hit: { headers: Record<string, unknown>; body: string }, secret: string): LeadCreatedEvent {
    return new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as LeadCreatedEvent;
  }

  it('makes, lists and revokes tokens with the session; the token itself is shown once and never listed', async () => {
    const ann = await creator(true);
    const made = await ann.browser.post('/api/tokens', { name: '  n8n  ' });
    expect(made.status).toBe(201);
    createdApiTokenSchema.parse(made.body);
    expect(made.body.name).toBe('n8n');
    expect(made.body.token).toMatch(/^plk_[0-9A-Za-z]{43}$/);

    const listed = await ann.browser.get('/api/tokens');
    expect(listed.status).toBe(200);
    apiTokenListSchema.parse(listed.body);
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual(['n8n', 'Zapier']);
    expect(JSON.stringify(listed.body)).not.toContain('plk_');
    const stored = await gateway.db.query('select token_hash from identity.api_tokens where id = $1', [made.body.id]);
    expect(stored.rows[0].token_hash).toHaveLength(64);
    expect(stored.rows[0].token_hash).not.toContain(made.body.token);

    expect((await ann.browser.post('/api/tokens', { name: '   ' })).body).toEqual({ message: ApiTokenMessages.nameRequired });

    // "Last used" appears once the token is used.
    expect((await call(made.body.token, 'GET', '/api/v1/me')).status).toBe(200);
    await eventually(async () => (await ann.browser.get('/api/tokens')).body.find((t: { id: number }) => t.id === made.body.id).lastUsedAt !== null);

    // A token cannot make, list or revoke tokens.
    expect((await call(made.body.token, 'POST', '/api/tokens', { name: 'more' })).status).toBe(401);
    expect((await call(made.body.token, 'GET', '/api/tokens')).status).toBe(401);

    const revoked = await ann.browser.request('DELETE', `/api/tokens/${made.body.id}`);
    expect(revoked.status).toBe(204);
    expect(await call(made.body.token, 'GET', '/api/v1/me')).toMatchObject({ status: 401, body: { message: ApiTokenMessages.invalidToken } });
    // Another user's token: 404, and it keeps working.
    const bob = await creator(true);
    const bobs = (await bob.browser.get('/api/tokens')).body[0];
    expect((await ann.browser.request('DELETE', `/api/tokens/${bobs.id}`)).status).toBe(404);
    expect((await call(bob.token, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it('refuses a revoked token within a second on another process that had it cached', async () => {
    const ann = await creator(true);
    const other: NestFastifyApplication = await createGateway(loadConfig({ ...gateway.env.vars, PLINK_WORKERS: 'none' }));
    try {
      const otherOrigin = await listenOnLoopback(other);
      const me = () => fetch(`${otherOrigin}/api/v1/me`, { headers: { authorization: `Bearer ${ann.token}` } }).then((r) => r.status);
      expect(await me()).toBe(200); // opens that process's revocation channel
      await new Promise((resolve) => setTimeout(resolve, 300)); // subscribed: the next verification is cached
      expect(await me()).toBe(200);
      const id = (await ann.browser.get('/api/tokens')).body[0].id;
      const revokedAt = Date.now();
      expect((await ann.browser.request('DELETE', `/api/tokens/${id}`)).status).toBe(204);
      await eventually(async () => (await me()) === 401, 1_000);
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    } finally {
      await other.close();
    }
  });

  it('takes no session cookie, no made-up token, and limits each token', async () => {
    const ann = await creator(true);
    // Signed in, without a token: refused (no ambient credential on /api/v1).
    expect(await ann.browser.get('/api/v1/me')).toMatchObject({ status: 401, body: { message: ApiTokenMessages.invalidToken } });
    expect((await ann.browser.post('/api/v1/hooks', { event: 'lead.created', target_url: 'https://example.com/x' })).status).toBe(401);
    expect((await call('plk_' + 'a'.repeat(43), 'GET', '/api/v1/me')).status).toBe(401);
    expect((await call('not-a-token', 'GET', '/api/v1/pages')).status).toBe(401);

    // The per-token limit (600 a minute, this token's own: another token of the user is not held up).
    const second = (await ann.browser.post('/api/tokens', { name: 'Make' })).body.token as string;
    const statuses: number[] = [];
    for (let batch = 0; batch < 30; batch += 1) {
      statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => call(ann.token, 'GET', '/api/v1/me').then((r) => r.status)))));
    }
    expect(statuses.filter((s) => s === 200).length).toBe(600);
    const limited = await call(ann.token, 'GET', '/api/v1/me');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({ message: ApiTokenMessages.tooManyRequests });
    expect((await call(second, 'GET', '/api/v1/me')).status).toBe(200);
  }, 120_000);

  it("answers me, pages and leads in their schemas' shapes; a repeat address is created: false", async () => {
    const ann = await creator();
    const me = await call(ann.token, 'GET', '/api/v1/me');
    expect(v1MeSchema.parse(me.body)).toEqual({ id: ann.id, email: ann.email, username: ann.username, plan: 'pro' });

    const p = await page(ann);
    const pages = await call(ann.token, 'GET', '/api/v1/pages');
    expect(pages.status).toBe(200);
    expect(v1PageListSchema.parse(pages.body)).toEqual([
      { id: p.id, slug: p.slug, title: `Api ${n}`, url: `${gateway.config.publicOrigin}/${p.slug}`, createdAt: expect.any(String) },
    ]);

    const first = await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'Lead.One@example.com' });
    expect(first.status).toBe(201);
    expect(v1CreatedLeadSchema.parse(first.body)).toMatchObject({ created: true, lead: { email: 'Lead.One@example.com', page: { id: p.id, slug: p.slug } } });
    const again = await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'lead.one@example.com' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ created: false, lead: first.body.lead });
    expect((await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'nope' })).status).toBe(400);
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'lead.two@example.com', consent: true });

    const leads = await call(ann.token, 'GET', `/api/v1/leads?page_id=${p.id}`);
    expect(leads.status).toBe(200);
    const list = v1LeadListSchema.parse(leads.body);
    expect(list.map((l) => l.email)).toEqual(['lead.two@example.com', 'Lead.One@example.com']);
    expect(new Set(list.map((l) => l.id)).size).toBe(2);
    for (const lead of list) {
      expect(Object.keys(lead).sort()).toEqual(['consentAt', 'createdAt', 'email', 'id', 'page', 'source']);
      expect(lead.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    }
    expect(list[0].consentAt).not.toBeNull();
    expect((await call(ann.token, 'GET', '/api/v1/leads?limit=1')).body).toHaveLength(1);
    expect((await call(ann.token, 'GET', '/api/v1/leads?limit=101')).status).toBe(400);

    // The creator's own view: both are conversions, neither came through a counted view (so no rate counts them).
    const mine = await ann.browser.get(`/api/pages/${p.id}`);
    expect(mine.body).toMatchObject({ conversions: 2, conversionsWithoutVisit: 2 });
    expect((await ann.browser.get('/api/pages')).body).toEqual([expect.objectContaining({ id: p.id, conversions: 2, conversionsWithoutVisit: 2 })]);
  });

  it('delivers each lead to every subscribed hook, signed with its own secret, in the webhook data shape', async () => {
    const ann = await creator();
    const p = await page(ann);
    const one = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/zap-one`, page_id: p.id });
    expect(one.status).toBe(201);
    expect(createdHookSchema.parse(one.body)).toMatchObject({ event: 'lead.created', target_url: `${receiver.origin}/zap-one`, page_id: p.id });
    expect(one.body.secret).toMatch(/^whsec_/);
    const two = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/zap-two` });
    expect(two.body.page_id).toBeNull();

    const listed = await call(ann.token, 'GET', `/api/v1/hooks?target_url=${encodeURIComponent(`${receiver.origin}/zap-two`)}`);
    expect(hookListSchema.parse(listed.body)).toEqual([{ id: two.body.id, event: 'lead.created', target_url: `${receiver.origin}/zap-two`, page_id: null }]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    // A visitor's sign-up on the page (the form), and a lead added through the API.
    expect((await gateway.browser().post(`/api/page/${p.slug}/submit`, { email: 'visitor@example.com' })).status).toBe(200);
    const added = await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'tool@example.com' });
    await eventually(async () => receiver.on('/zap-one').length >= 2 && receiver.on('/zap-two').length >= 2, 10_000);

    const events = receiver.on('/zap-one').map((hit) => verified(hit, one.body.secret));
    expect(events.map((e) => e.data.email).sort()).toEqual(['tool@example.com', 'visitor@example.com']);
    const viaTwo = receiver.on('/zap-two').map((hit) => verified(hit, two.body.secret));
    expect(viaTwo.map((e) => e.data.email).sort()).toEqual(['tool@example.com', 'visitor@example.com']);
    expect(() => verified(receiver.on('/zap-one')[0], two.body.secret)).toThrow();
    // The same data as the API's lead.
    expect(events.find((e) => e.data.email === 'tool@example.com')!.data).toEqual(added.body.lead);
    // A lead the tool sent came from no visit: no referrer, no campaign, no device, stored as such.
    expect(added.body.lead.source).toEqual({ referrer: null, utmSource: null, utmMedium: null, utmCampaign: null, device: null });
    const stored = await gateway.db.query('select referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device from leads.leads where id = $1', [added.body.lead.id]);
    expect(stored.rows).toEqual([{ referrer: null, ref: null, ref_source: null, utm_source: null, utm_medium: null, utm_campaign: null, device: null }]);
    const polled = await call(ann.token, 'GET', `/api/v1/leads?page_id=${p.id}`);
    expect(polled.body).toEqual(expect.arrayContaining(events.map((e) => e.data)));

    // Settings → Automations: the hooks and their deliveries.
    const automations = await ann.browser.get('/api/hooks');
    const shown = hooksWithDeliveriesSchema.parse(automations.body);
    expect(shown.map((h) => h.deliveries.filter((d) => d.status === 'delivered').length)).toEqual([2, 2]);

    // Unsubscribed: no more deliveries there.
    expect((await call(ann.token, 'DELETE', `/api/v1/hooks/${two.body.id}`)).status).toBe(204);
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'later@example.com' });
    await eventually(async () => receiver.on('/zap-one').length >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.on('/zap-two')).toHaveLength(2);
  });

  it('retries a failing target on the webhook schedule, with the same webhook-id, until it answers', async () => {
    const ann = await creator();
    const p = await page(ann);
    receiver.answer('/flaky', { status: 503 });
    const hook = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/flaky` });
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'retried@example.com' });
    // The first retry comes 5 s (±10 %) after the failed attempt.
    await eventually(async () => receiver.on('/flaky').length >= 2, 15_000);
    const [first, second] = receiver.on('/flaky');
    expect(second.at - first.at).toBeGreaterThanOrEqual(4_000);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verified(second, hook.body.secret).data.email).toBe('retried@example.com');
    const delivery = (await ann.browser.get('/api/hooks')).body[0].deliveries[0];
    await eventually(async () => (await ann.browser.get('/api/hooks')).body[0].deliveries[0].status === 'delivered');
    expect(delivery.attempts[0].status).toBe(503);
  }, 30_000);

  it('ends a subscription whose target answers 410 Gone after that one attempt', async () => {
    const ann = await creator();
    const p = await page(ann);
    receiver.answer('/gone', { status: 410 });
    const hook = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/gone` });
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'first@example.com' });
    await eventually(async () => (await call(ann.token, 'GET', '/api/v1/hooks')).body.length === 0, 10_000);
    expect(receiver.on('/gone')).toHaveLength(1);
    expect((await call(ann.token, 'DELETE', `/api/v1/hooks/${hook.body.id}`)).status).toBe(404);
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'second@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.on('/gone')).toHaveLength(1);
  });

  it("rotates a hook's secret: the new one answered once, both signing for a day; another user's hook is 404", async () => {
    const ann = await creator();
    const bob = await creator();
    const p = await page(ann);
    const target = `${receiver.origin}/rotating`;
    const hook = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: target, page_id: p.id });
    expect(await call(bob.token, 'POST', `/api/v1/hooks/${hook.body.id}/rotate-secret`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.hookNotFound } });
    expect((await ann.browser.post(`/api/v1/hooks/${hook.body.id}/rotate-secret`, {})).status).toBe(401);

    const rotated = await call(ann.token, 'POST', `/api/v1/hooks/${hook.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(createdHookSchema.parse(rotated.body)).toEqual({ id: hook.body.id, event: 'lead.created', target_url: target, page_id: p.id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(hook.body.secret);
    expect(JSON.stringify((await call(ann.token, 'GET', '/api/v1/hooks')).body)).not.toContain('whsec_');

    // The tool may still hold the old secret, or already the new one: both verify the delivery.
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'rotated@example.com' });
    await eventually(async () => receiver.on('/rotating').length === 1, 10_000);
    expect(verified(receiver.on('/rotating')[0], rotated.body.secret).data.email).toBe('rotated@example.com');
    expect(verified(receiver.on('/rotating')[0], hook.body.secret).data.email).toBe('rotated@example.com');
  });

  it('refuses hooks to Free accounts and to inward addresses', async () => {
    const free = await creator(true);
    const refused = await call(free.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: 'https://example.com/hook' });
    expect(refused).toMatchObject({ status: 403, body: { message: ApiTokenMessages.hooksProOnly } });
    expect((await call(free.token, 'GET', '/api/v1/hooks')).status).toBe(403);

    const pro = await creator();
    expect((await call(pro.token, 'POST', '/api/v1/hooks', { event: 'lead.updated', target_url: 'https://example.com/hook' })).status).toBe(400);
    expect((await call(pro.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: 'ftp://example.com/hook' })).status).toBe(400);
  });

  it("keeps one user's token away from another's hooks, pages and leads (404)", async () => {
    const ann = await creator();
    const bob = await creator();
    const annsPage = await page(ann);
    await call(ann.token, 'POST', `/api/v1/pages/${annsPage.id}/leads`, { email: 'secret@example.com' });
    const annsHook = await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/ann` });

    expect((await call(bob.token, 'GET', '/api/v1/hooks')).body).toEqual([]);
    expect(await call(bob.token, 'DELETE', `/api/v1/hooks/${annsHook.body.id}`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.hookNotFound } });
    expect((await call(bob.token, 'GET', '/api/v1/pages')).body).toEqual([]);
    expect(await call(bob.token, 'GET', `/api/v1/leads?page_id=${annsPage.id}`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.pageNotFound } });
    expect((await call(bob.token, 'GET', '/api/v1/leads')).body).toEqual([]);
    expect((await call(bob.token, 'POST', `/api/v1/pages/${annsPage.id}/leads`, { email: 'x@example.com' })).status).toBe(404);
    expect((await call(bob.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/bob`, page_id: annsPage.id })).status).toBe(404);
    expect((await call(ann.token, 'GET', '/api/v1/hooks')).body).toHaveLength(1);
  });

  it("answers ids no row can have (not a plain positive integer, or beyond int4) with the route's 404, never a 500", async () => {
    const ann = await creator();
    for (const id of ['abc', '0', '-1', '1.5', '007', '99999999999', '2147483648']) {
      expect(await ann.browser.request('DELETE', `/api/tokens/${id}`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.tokenNotFound } });
      expect(await ann.browser.request('DELETE', `/api/hooks/${id}`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.hookNotFound } });
      expect(await call(ann.token, 'DELETE', `/api/v1/hooks/${id}`)).toMatchObject({ status: 404, body: { message: ApiTokenMessages.hookNotFound } });
      expect(await call(ann.token, 'POST', `/api/v1/pages/${id}/leads`, { email: 'x@example.com' })).toMatchObject({
        status: 404,
        body: { message: ApiTokenMessages.pageNotFound },
      });
    }
    // The largest int4 id is still looked up (and simply is not there).
    expect(await call(ann.token, 'DELETE', '/api/v1/hooks/2147483647')).toMatchObject({ status: 404, body: { message: ApiTokenMessages.hookNotFound } });
    expect((await call(ann.token, 'GET', '/api/v1/me')).status).toBe(200);
  });

  it("sends no lead to hooks once the owner's downgrade is known", async () => {
    const ann = await creator();
    const p = await page(ann);
    await call(ann.token, 'POST', '/api/v1/hooks', { event: 'lead.created', target_url: `${receiver.origin}/downgraded` });
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'pro-time@example.com' });
    await eventually(async () => receiver.on('/downgraded').length === 1, 10_000);
    const code = await runPlinkCommand(['revoke-pro', ann.email], { out: () => undefined, err: () => undefined, env: gateway.env.vars }, identityUsers);
    expect(code).toBe(0);
    await eventually(async () => (await call(ann.token, 'GET', '/api/v1/me')).body.plan === 'free');
    await eventually(async () => (await gateway.db.query('select is_pro from leads.owner_plans where owner_id = $1', [ann.id])).rows[0]?.is_pro === false);
    await call(ann.token, 'POST', `/api/v1/pages/${p.id}/leads`, { email: 'free-time@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.on('/downgraded')).toHaveLength(1);
  });
});
