import { pollUntil } from '@plink/testing';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';

/** The spam defence's per-address, per-page limit on lead submissions (default 20 a minute; see LeadsTestApp). */
describe('leads: per-address limit on submissions', () => {
  let t: LeadsTestApp;
  let pro: Creator;

  beforeAll(async () => {
    // The default limit. One trusted proxy: the test speaks as that proxy, saying in X-Forwarded-For whose
    // request it relays.
    t = await LeadsTestApp.start({ TRUST_PROXY: '1', LEAD_RATE_LIMIT_PER_MINUTE: '20' });
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const submit = (slug: string, email: string, address = '203.0.113.7') =>
    t.submit(slug, { email, consent: true }, t.client({ 'x-forwarded-for': address }));

  /** The limit counts per clock minute: start well inside one, so the 21st lands in the same window. */
  async function startInsideAMinute(): Promise<void> {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
  }

  it('takes 20 submissions a minute from one address on one page, then answers 429 with Retry-After', async () => {
    const page = await t.createPage(pro);
    await startInsideAMinute();
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push((await submit(page.slug, `visitor${i}@example.com`)).status);
    expect(answers).toEqual(Array(20).fill(200));

    const limited = await submit(page.slug, 'one-too-many@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many submissions from your address. Please try again in a minute.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await t.leadCount(page.id)).toBe(20);

    // The form without JavaScript is limited alike, and says so on the page.
    const form = await t.formPost(`/${page.slug}`, { email: 'form-too-many@example.com', consent: 'on' }, { 'x-forwarded-for': '203.0.113.7' });
    expect(form.status).toBe(429);
    expect(form.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await form.text()).toContain('Too many submissions from your address.');

    // Another address, and the same address on another page, each have their own budget.
    expect((await submit(page.slug, 'neighbour@example.com', '198.51.100.9')).status).toBe(200);
    const other = await t.createPage(pro);
    expect((await submit(other.slug, 'elsewhere@example.com')).status).toBe(200);
    expect(await t.leadCount(page.id)).toBe(21);

    // The owner's stats count the refused submissions (the JSON one and the form post).
    const stats = await pollUntil(() => pro.client.get(`/api/pages/${page.id}/stats`), (r) => r.body.blocked?.rateLimit === 2);
    expect(stats.body.blocked).toEqual({ token: 0, timing: 0, honeypot: 0, disposable: 0, noMx: 0, rateLimit: 2 });
  }, 40_000);

  it('keys the limit on the address the proxy saw, whatever the client writes in its own X-Forwarded-For', async () => {
    const page = await t.createPage(pro);
    await startInsideAMinute();
    // The proxy appends the address it saw (198.51.100.44) to whatever the client sent.
    const spoofed = (i: number) => submit(page.slug, `spoof${i}@example.com`, `10.0.${i}.1, 198.51.100.44`);
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push((await spoofed(i)).status);
    expect(answers).toEqual([...Array(20).fill(200), 429]);
    expect(await t.leadCount(page.id)).toBe(20);
  }, 40_000);
});
