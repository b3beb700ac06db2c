import { CommonMessages, QueueName } from '@plink/contracts';
import { LeadsTestApp, okAnswer, type Creator } from '../testing/leads-test-app';

/**
 * Lead capture as visitors see it (see LeadsTestApp): the JSON call and the form without JavaScript,
 * validation, the honeypot, concurrent and repeated submissions. The thank-you page a form post leads to
 * (rendered by pages) and the page routes beside the rest of the gateway are tested in the gateway.
 */
describe('leads: submissions', () => {
  let t: LeadsTestApp;
  let pro: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const fileDeliveries = async (leadId: number) => (await t.jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.leadId === leadId);

  it('accepts a valid submission with what the page shows next, and refuses bad input with a 400, storing nothing', async () => {
    const page = await t.createPage(pro);
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email', consent: true }, 'Please enter a valid email address'],
      [{ email: `${'x'.repeat(243)}@example.com`, consent: true }, 'Please enter a valid email address'], // 255 characters
      [{ email: '', consent: true }, 'Please enter a valid email address'],
      [{ consent: true }, 'Please enter a valid email address'],
      [{ email: ['a@example.com'], consent: true }, 'Please enter a valid email address'],
      [{ email: 'ada@example.com' }, 'Please agree to the privacy policy to continue.'],
      [{ email: 'ada@example.com', consent: false }, 'Please agree to the privacy policy to continue.'],
      ['[]', 'Invalid request'],
    ];
    for (const [body, message] of cases) {
      const res = await t.submit(page.slug, body);
      expect({ body, status: res.status, message: res.body?.message }).toEqual({ body, status: 400, message: expect.any(String) });
      if (message !== 'Invalid request') expect(res.body.message).toBe(message);
    }
    // What the edge answers before the call reads the body (the API reference lists these for it too).
    const malformed = await t.submit(page.slug, '{not json');
    expect({ status: malformed.status, message: malformed.body?.message }).toEqual({ status: 400, message: CommonMessages.malformedJson });
    const oversized = await t.submit(page.slug, { email: 'ada@example.com', consent: true, website: 'x'.repeat(200 * 1024) });
    expect({ status: oversized.status, message: oversized.body?.message }).toEqual({ status: 413, message: CommonMessages.bodyTooLarge });
    expect(await t.leadCount(page.id)).toBe(0);

    // 254 characters is still an address.
    expect(await t.submit(page.slug, { email: `${'x'.repeat(242)}@example.com`, consent: true })).toMatchObject(okAnswer);
    expect(await t.submit(page.slug, { email: '  Grace@Example.com ', consent: 'on' })).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(2);
    const stored = (await t.db.query('select email, email_lower, consent_at, created_at from leads.leads where page_id = $1 and email_lower = $2', [page.id, 'grace@example.com'])).rows[0];
    expect(stored.email).toBe('Grace@Example.com');
    expect(stored.consent_at).toBeInstanceOf(Date);
  });

  it('needs no consent when the page hides the privacy checkbox, and answers the thank-you settings', async () => {
    const page = await t.createPage(pro, {
      hidePrivacyPolicyCheckbox: true,
      thankYouHeadline: 'You are in!',
      thankYouSubtext: 'See you soon.',
      thankYouButtonText: 'Read the blog',
      thankYouButtonUrl: 'https://blog.example/welcome',
      redirectUrl: 'https://example.com/next',
    });
    const res = await t.submit(page.slug, { email: 'hidden@example.com' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        success: true,
        thankYouHeadline: 'You are in!',
        thankYouSubtext: 'See you soon.',
        thankYouButton: { text: 'Read the blog', url: 'https://blog.example/welcome' },
        redirectUrl: 'https://example.com/next',
      },
    });
    expect((await t.db.query('select consent_at from leads.leads where page_id = $1', [page.id])).rows[0].consent_at).toBeNull();

    // A button needs both its text and its URL.
    const half = await t.createPage(pro, { thankYouButtonText: 'Only text' });
    expect((await t.submit(half.slug, { email: 'half@example.com', consent: true })).body.thankYouButton).toBeNull();
  });

  it('answers 404 for an unknown or reserved slug', async () => {
    expect(await t.submit('no-such-page-anywhere', { email: 'a@example.com', consent: true })).toMatchObject({
      status: 404,
      body: { message: 'Page not found' },
    });
    expect((await t.submit('dashboard', { email: 'a@example.com', consent: true })).status).toBe(404);
  });

  it('answers a bot that fills the honeypot exactly like a person, and stores and sends nothing', async () => {
    const page = await t.createPage(pro, { fileUrl: 'https://files.example/bot.pdf' });
    const bot = await t.submit(page.slug, { email: 'bot@example.com', consent: true, website: 'https://spam.example' });
    const human = await t.submit(page.slug, { email: 'human@example.com', consent: true, website: '' });
    expect(bot.status).toBe(200);
    expect(bot.body).toEqual(human.body);
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await t.conversions(page.id)).toBe(1);
    // Only the person's file e-mail is recorded for the e-mail queue.
    await t.outboxDrained();
    const mails = (await t.jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.page.id === page.id);
    expect(mails.map((j) => j.data.payload.to)).toEqual(['human@example.com']);
  });

  it('lets one address submit as often as it likes when LEAD_RATE_LIMIT_PER_MINUTE is 0', async () => {
    const page = await t.createPage(pro);
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push((await t.submit(page.slug, { email: `often${i}@example.com`, consent: true })).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    expect(await t.leadCount(page.id)).toBe(30);
  });

  it('stores one lead, one conversion and one file e-mail for 50 simultaneous submissions of one address in mixed case', async () => {
    const page = await t.createPage(pro, { fileUrl: 'https://files.example/once.pdf' });
    const spellings = ['same@example.com', 'SAME@example.com', 'Same@Example.Com', 'same@EXAMPLE.com', ' same@example.com '];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => t.submit(page.slug, { email: spellings[i % spellings.length], consent: true })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => a.body.success === true)).toBe(true);
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await t.conversions(page.id)).toBe(1);
    await t.outboxDrained();
    expect(await fileDeliveries(await t.leadId(page.id, 'same@example.com'))).toHaveLength(1);
  });

  it('keeps all of 1000 simultaneous distinct submissions', async () => {
    const page = await t.createPage(pro);
    const tag = Date.now().toString(36);
    const formToken = t.formToken(page.id);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${t.origin}/api/page/${page.slug}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `crowd${i}.${tag}@example.com`, consent: true, formToken }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      ),
    );
    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.slice(0, 3)).toEqual([]);
    expect(await t.leadCount(page.id)).toBe(1000);
    expect(await t.conversions(page.id)).toBe(1000);
  }, 60_000);

  // --- the form without JavaScript ---------------------------------------------------------------------------

  it('takes the form post without JavaScript: 303 to the thank-you state, or the page again with the error', async () => {
    const page = await t.createPage(pro, { thankYouHeadline: 'Welcome aboard friend' });

    const ok = await t.formPost(`/${page.slug}`, { email: 'nojs@example.com', consent: 'on', website: '' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/${page.slug}?submitted=1`);
    expect(await t.leadCount(page.id)).toBe(1);

    const short = await t.formPost(`/p/${page.slug}`, { email: 'nojs2@example.com', consent: 'on' });
    expect(short.status).toBe(303);
    expect(short.headers.get('location')).toBe(`/p/${page.slug}?submitted=1`);
    const long = await t.formPost(`/p/${pro.username}/${page.slug}`, { email: 'nojs3@example.com', consent: 'on' });
    expect(long.status).toBe(303);
    expect(long.headers.get('location')).toBe(`/p/${pro.username}/${page.slug}?submitted=1`);
    expect(await t.leadCount(page.id)).toBe(3);

    const bad = await t.formPost(`/${page.slug}`, { email: 'not an <b>email</b>', consent: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/text\/html/);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Please enter a valid email address');
    expect(badHtml).not.toContain('<b>email</b>');

    const noConsent = await t.formPost(`/${page.slug}`, { email: 'noconsent@example.com' });
    expect(noConsent.status).toBe(400);
    expect(await noConsent.text()).toContain('Please agree to the privacy policy to continue.');

    const bot = await t.formPost(`/${page.slug}`, { email: 'formbot@example.com', consent: 'on', website: 'spam' });
    expect(bot.status).toBe(303);
    expect(await t.leadCount(page.id)).toBe(3);

    const unknown = await t.formPost('/no-such-page-anywhere', { email: 'a@example.com', consent: 'on' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Page Not Found');
    expect((await t.formPost(`/p/someone-else/${page.slug}`, { email: 'a@example.com', consent: 'on' })).status).toBe(404);
    expect((await t.formPost('/dashboard', { email: 'a@example.com', consent: 'on' })).status).toBe(404);
  });
});
