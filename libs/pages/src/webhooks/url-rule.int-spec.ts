import { PageMessages, WebhookMessages } from '@plink/contracts';
import { WebhookSecretBox } from './webhook-secret-box';
import { PagesTestApp } from '../testing/pages-test-app';

/**
 * Saving a webhook URL on a server as deployed (WEBHOOK_ALLOW_PRIVATE_NETWORKS off): URLs that point at this
 * machine, its network or the cloud's metadata service answer 400 and change nothing; public and
 * not-yet-resolvable hosts are saved. The rule is the pages service's, applied where the page is saved; the
 * owner's webhook panel shows what it saved (its secret made with the first URL).
 */
describe('webhook URL rule on save', () => {
  let t: PagesTestApp;

  beforeAll(async () => {
    t = await PagesTestApp.start();
  });

  afterAll(async () => {
    await t?.close();
  });

  const stored = async (id: number) =>
    (await t.db.query('select webhook_url, webhook_secret from pages.pages where id = $1', [id])).rows[0] as { webhook_url: string | null; webhook_secret: string | null };

  it('refuses inward and non-http URLs with a clear message, and saves the others', async () => {
    const { client } = await t.creator({ premium: true });
    const created = await client.post('/api/pages', { slug: `rule-${Date.now().toString(36)}`, title: 'Rule' });
    expect(created.status).toBe(201);
    const put = (webhookUrl: string | null) => client.request('PUT', `/api/pages/${created.body.id}`, { webhookUrl });

    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://[::1]/hook',
      'http://10.0.0.8/hook',
      'http://192.168.1.20/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://0x7f000001/',
      'http://localhost:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const answer = await put(url);
      expect({ url, status: answer.status, message: answer.body.message }).toEqual({ url, status: 400, message: WebhookMessages.blockedAddress });
    }
    for (const url of ['ftp://hooks.example.com/x', '/uploads/u1/x.png', 'javascript:alert(1)']) {
      const answer = await put(url);
      expect({ url, status: answer.status, message: answer.body.message }).toEqual({ url, status: 400, message: PageMessages.invalidUrl });
    }
    // Nothing was saved, and no secret made.
    expect((await client.get(`/api/pages/${created.body.id}`)).body.webhookUrl).toBeNull();
    expect(await stored(created.body.id)).toEqual({ webhook_url: null, webhook_secret: null });
    // Also on create.
    const refused = await client.post('/api/pages', { slug: `rule-x-${Date.now().toString(36)}`, webhookUrl: 'http://127.0.0.2/' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(WebhookMessages.blockedAddress);

    // A public address, and a host that does not resolve (its attempts will report the DNS error), are saved.
    expect((await put('https://93.184.216.34/hook')).status).toBe(200);
    const unresolvable = await put('https://hooks.invalid/catch');
    expect(unresolvable.status).toBe(200);
    expect(unresolvable.body.webhookUrl).toBe('https://hooks.invalid/catch');
    const saved = await stored(created.body.id);
    expect(saved.webhook_url).toBe('https://hooks.invalid/catch');
    expect(t.app.get(WebhookSecretBox, { strict: false }).open(saved.webhook_secret!)).toMatch(/^whsec_/);
  });
});
