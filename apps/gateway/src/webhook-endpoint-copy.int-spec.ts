import { QueueName, type WebhookDto } from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { JobQueue } from '@plink/queue';
import { WebhookSecretBox } from '@plink/pages';
import type { TestBrowser } from './testing/http-client';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';
import { eventually } from '@plink/testing';

/**
 * The notifications service delivers webhooks from its own copy of each page's endpoint (it reads no page):
 * the pages service tells it every change. The whole gateway with every worker in-process (real PostgreSQL,
 * Redis); the copy is read in the notifications schema, as the delivery worker reads it.
 */
describe("notifications' copy of the webhook endpoints", () => {
  let gateway: TestGateway;
  let n = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  async function plink(args: string[]): Promise<number> {
    return runPlinkCommand(args, { out: () => undefined, err: () => undefined, env: gateway.env.vars }, identityUsers);
  }

  interface CopyRow {
    owner_id: number;
    url: string | null;
    secret: string | null;
    previous_secret: string | null;
    enabled: boolean;
    deleted: boolean;
    changed_at: Date;
  }

  const copyOf = async (pageId: number): Promise<CopyRow | undefined> =>
    (await gateway.db.query('select * from notifications.webhook_endpoints where page_id = $1', [pageId])).rows[0];

  async function proCreator(): Promise<{ id: number; email: string; browser: TestBrowser }> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `copy_${tag}`, email: `copy.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    expect(await plink(['grant-pro', who.email])).toBe(0);
    await eventually(async () => (await browser.get('/api/user')).body.isPremium === true);
    return { id: registered.body.id, email: who.email, browser };
  }

  it('follows a URL change (the panel shows the new URL at once), a rotation, the plan and the page deletion', async () => {
    const owner = await proCreator();
    const created = await owner.browser.post('/api/pages', { slug: `copied-${Date.now().toString(36)}`, title: 'Copied', webhookUrl: 'https://hooks.example/first' });
    expect(created.status).toBe(201);
    const pageId = created.body.id as number;

    const first = await eventually(async () => (await copyOf(pageId))?.url === 'https://hooks.example/first' && (await copyOf(pageId)));
    expect(first).toMatchObject({ owner_id: owner.id, enabled: true, deleted: false, previous_secret: null });
    // The secret is copied sealed, as the pages service stores it, and opens to the one the owner is shown.
    const panel = (await owner.browser.get(`/api/pages/${pageId}/webhook`)).body as WebhookDto;
    expect(first.secret).not.toContain('whsec_');
    expect(gateway.app.get(WebhookSecretBox, { strict: false }).open(first.secret!)).toBe(panel.secret);

    // A URL change: the owner's panel answers it right away (from the pages service), the copy follows.
    expect((await owner.browser.request('PUT', `/api/pages/${pageId}`, { webhookUrl: 'https://hooks.example/second' })).status).toBe(200);
    expect(((await owner.browser.get(`/api/pages/${pageId}/webhook`)).body as WebhookDto).url).toBe('https://hooks.example/second');
    await eventually(async () => (await copyOf(pageId))?.url === 'https://hooks.example/second');

    // A rotation: the new secret, and the former one beside it.
    expect((await owner.browser.post(`/api/pages/${pageId}/webhook/rotate-secret`)).status).toBe(200);
    const rotated = await eventually(async () => {
      const row = await copyOf(pageId);
      return row?.previous_secret === first.secret && row;
    });
    expect(rotated.secret).not.toBe(first.secret);

    // The page is deleted: its endpoint is gone from the copy, and a change older than the deletion that
    // arrives late (a retried job) does not bring it back.
    const before = (await copyOf(pageId))!;
    expect((await owner.browser.request('DELETE', `/api/pages/${pageId}`)).status).toBe(200);
    const deleted = await eventually(async () => {
      const row = await copyOf(pageId);
      return row?.deleted && row;
    });
    expect(deleted).toMatchObject({ url: null, secret: null });
    const late = {
      v: 1,
      pageId,
      ownerId: owner.id,
      at: new Date(before.changed_at).toISOString(),
      endpoint: { url: 'https://hooks.example/second', secret: before.secret, previousSecret: null, previousSecretUntil: null, enabled: true, enabledAt: null },
    };
    const jobs = gateway.app.get(JobQueue, { strict: false });
    await jobs.addMany([{ name: 'webhook-endpoint.changed', queue: QueueName.Webhooks, jobId: `late-${pageId}`, envelope: { payload: late as never, meta: { correlationId: 'late', recordedAt: new Date().toISOString() } } }]);
    await eventually(async () => (await (await jobs.queue(QueueName.Webhooks).getJob(`late-${pageId}`))?.getState()) === 'completed');
    expect(await copyOf(pageId)).toMatchObject({ deleted: true, url: null });
  }, 60_000);
});
