import { PageMessages, WebhookMessages } from '@plink/contracts';
import { runPlinkCommand } from '@plink/billing';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Saving a webhook URL on a server as deployed (WEBHOOK_ALLOW_PRIVATE_NETWORKS off): URLs that point at this
 * machine, its network or the cloud's metadata service answer 400 and change nothing; public and
 * not-yet-resolvable hosts are saved.
 */
describe('webhook URL rule on save', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('refuses inward and non-http URLs with a clear message, and saves the others', async () => {
    const browser = gateway.browser();
    const who = { username: `rule_${Date.now().toString(36)}`, email: `rule.${Date.now().toString(36)}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    const out: string[] = [];
    expect(await runPlinkCommand(['grant-pro', who.email], { out: (l) => out.push(l), err: (l) => out.push(l), env: gateway.env.vars }, identityUsers)).toBe(0);
    for (let i = 0; i < 200 && !(await browser.get('/api/user')).body.isPremium; i++) await new Promise((r) => setTimeout(r, 50));

    const created = await browser.post('/api/pages', { slug: `rule-${Date.now().toString(36)}`, title: 'Rule' });
    expect(created.status).toBe(201);
    const put = (webhookUrl: string | null) => browser.request('PUT', `/api/pages/${created.body.id}`, { webhookUrl });

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
    expect((await browser.get(`/api/pages/${created.body.id}`)).body.webhookUrl).toBeNull();
    expect((await browser.get(`/api/pages/${created.body.id}/webhook`)).body).toMatchObject({ url: null, secret: null });
    // Also on create.
    const refused = await browser.post('/api/pages', { slug: `rule-x-${Date.now().toString(36)}`, webhookUrl: 'http://127.0.0.2/' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(WebhookMessages.blockedAddress);

    // A public address, and a host that does not resolve (its attempts will report the DNS error), are saved.
    expect((await put('https://93.184.216.34/hook')).status).toBe(200);
    const unresolvable = await put('https://hooks.invalid/catch');
    expect(unresolvable.status).toBe(200);
    expect(unresolvable.body.webhookUrl).toBe('https://hooks.invalid/catch');
    expect((await browser.get(`/api/pages/${created.body.id}/webhook`)).body.secret).toMatch(/^whsec_/);
  });
});
