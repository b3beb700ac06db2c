import { Client } from 'pg';
import { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** The spam defence's per-address, per-page limit on lead submissions (default 20 a minute). */
describe('per-address limit on lead submissions', () => {
  let gateway: TestGateway;
  let origin: string;
  let db: Client;

  beforeAll(async () => {
    // One trusted proxy: the test speaks as that proxy, saying in X-Forwarded-For whose request it relays.
    gateway = await startTestGateway({ TRUST_PROXY: '1' });
    ({ origin, db } = gateway);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  async function proPage(): Promise<{ id: number; slug: string }> {
    const b = new TestBrowser(origin);
    const t = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const registered = await b.post('/api/register', { username: `rl_${t}`, email: `rl.${t}@example.com`, password: 'secret-123' });
    await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    const created = await b.post('/api/pages', { slug: `rl-${t}` });
    expect(created.status).toBe(201);
    return created.body;
  }

  const submit = (slug: string, email: string, address = '203.0.113.7') =>
    new TestBrowser(origin).post(`/api/page/${slug}/submit`, { email, consent: true }, { 'x-forwarded-for': address });
  const leadCount = async (pageId: number) => Number((await db.query('select count(*) from leads.leads where page_id = $1', [pageId])).rows[0].count);

  it('takes 20 submissions a minute from one address on one page, then answers 429 with Retry-After', async () => {
    const page = await proPage();
    // The limit counts per clock minute: start well inside one, so the 21st lands in the same window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push((await submit(page.slug, `visitor${i}@example.com`)).status);
    expect(answers).toEqual(Array(20).fill(200));

    const limited = await submit(page.slug, 'one-too-many@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many submissions from your address. Please try again in a minute.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await leadCount(page.id)).toBe(20);

    // The form without JavaScript is limited alike, and says so on the page.
    const form = await fetch(`${origin}/${page.slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' },
      body: 'email=form-too-many%40example.com&consent=on',
    });
    expect(form.status).toBe(429);
    expect(form.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await form.text()).toContain('Too many submissions from your address.');

    // Another address, and the same address on another page, each have their own budget.
    expect((await submit(page.slug, 'neighbour@example.com', '198.51.100.9')).status).toBe(200);
    const other = await proPage();
    expect((await submit(other.slug, 'elsewhere@example.com')).status).toBe(200);
    expect(await leadCount(page.id)).toBe(21);
  }, 40_000);

  it("keys the limit on the address the proxy saw, whatever the client writes in its own X-Forwarded-For", async () => {
    const page = await proPage();
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    // The proxy appends the address it saw (198.51.100.44) to whatever the client sent.
    const spoofed = (i: number) => submit(page.slug, `spoof${i}@example.com`, `10.0.${i}.1, 198.51.100.44`);
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push((await spoofed(i)).status);
    expect(answers).toEqual([...Array(20).fill(200), 429]);
    expect(await leadCount(page.id)).toBe(20);
  }, 40_000);
});
