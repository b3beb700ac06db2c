import { pollUntil } from '@plink/testing';
import { LeadsTestApp, okAnswer, type Creator } from '../testing/leads-test-app';
import { TestDns } from '../testing/test-dns';

const TWO_HOURS = 2 * 60 * 60 * 1000;
const NONE = { token: 0, timing: 0, honeypot: 0, disposable: 0, noMx: 0, rateLimit: 0 };
const TOKEN_FIELD = /name="formToken" value="([^"]+)"/;

/**
 * The bot shield as a visitor and a script meet it (see docs/security.md): the form token, the honeypot, and,
 * on pages that refuse throwaway addresses, throwaway domains and domains that receive no mail (asked of a DNS
 * server of the test's own). Refusals a script could learn from answer exactly like a success and store
 * nothing; the ones a person can fix say why (400); an expired token is renewed; each is counted.
 */
describe('leads: the bot shield', () => {
  let t: LeadsTestApp;
  let dns: TestDns;
  let pro: Creator;

  beforeAll(async () => {
    dns = await TestDns.start({
      'example.com': { mx: 'mail.example.com' },
      'only-a.example': { a: '192.0.2.1' },
      'nowhere.example': {},
    });
    t = await LeadsTestApp.start({ EMAIL_MX_CHECK: 'true', DNS_SERVERS: dns.address });
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  const blocked = async (pageId: number, expected: Record<string, number>) =>
    (
      await pollUntil(
        () => pro.client.get(`/api/pages/${pageId}/stats`),
        (r) => JSON.stringify(r.body.blocked) === JSON.stringify({ ...NONE, ...expected }),
      )
    ).body.blocked;

  it('answers a script without a genuine token, one too quick, or one filling the honeypot exactly like a success, and stores nothing', async () => {
    const page = await t.createPage(pro);
    const other = await t.createPage(pro);
    const email = (n: string) => `${n}@example.com`;
    const genuine = await t.submit(page.slug, { email: email('human'), consent: true });
    expect(genuine).toMatchObject(okAnswer);
    const [v, id, issued] = t.formToken(page.id).split('.');

    const bots: [string, Record<string, unknown>][] = [
      ['no token', { formToken: undefined }],
      ['empty token', { formToken: '' }],
      ['forged token', { formToken: [v, id, issued, 'A'.repeat(22)].join('.') }],
      ['backdated token', { formToken: [v, id, (Number.parseInt(issued, 36) - 60_000).toString(36), t.formToken(page.id).split('.')[3]].join('.') }],
      ["another page's token", { formToken: t.formToken(other.id) }],
      ['sent at once', { formToken: t.formToken(page.id, 0) }],
      ['sent after 1.5 s', { formToken: t.formToken(page.id, 1_500) }],
      ['honeypot', { website: 'https://spam.example' }],
    ];
    for (const [name, fields] of bots) {
      const answer = await t.submit(page.slug, { email: email(name.replace(/\W/g, '-')), consent: true, ...fields });
      expect({ name, status: answer.status, body: answer.body, type: answer.headers.get('content-type') }).toEqual({
        name,
        status: genuine.status,
        body: genuine.body,
        type: genuine.headers.get('content-type'),
      });
    }
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await blocked(page.id, { token: 5, timing: 2, honeypot: 1 })).toEqual({ ...NONE, token: 5, timing: 2, honeypot: 1 });

    // The form without JavaScript: the same 303 to the thank-you state as a stored sign-up.
    const human = await t.formPost(`/${page.slug}`, { email: 'form-human@example.com', consent: 'on' });
    const formBots = [
      await t.formPost(`/${page.slug}`, { email: 'form-bot1@example.com', consent: 'on', formToken: '' }),
      await t.formPost(`/${page.slug}`, { email: 'form-bot2@example.com', consent: 'on', formToken: t.formToken(page.id, 0) }),
      await t.formPost(`/${page.slug}`, { email: 'form-bot3@example.com', consent: 'on', website: 'x' }),
    ];
    for (const bot of formBots) {
      expect({ status: bot.status, location: bot.headers.get('location') }).toEqual({ status: human.status, location: human.headers.get('location') });
    }
    expect(human.status).toBe(303);
    expect(await t.leadCount(page.id)).toBe(2);
    expect(await blocked(page.id, { token: 6, timing: 3, honeypot: 2 })).toEqual({ ...NONE, token: 6, timing: 3, honeypot: 2 });
  });

  it('renews an expired token: the script gets a fresh one (409) and its one retry is stored', async () => {
    const page = await t.createPage(pro);
    const expired = await t.submit(page.slug, { email: 'overnight@example.com', consent: true, formToken: t.formToken(page.id, TWO_HOURS + 60_000) });
    expect(expired.status).toBe(409);
    expect(expired.body).toEqual({ message: 'Please press Subscribe again.', formToken: expect.stringMatching(/^v1\./) });
    expect(await t.leadCount(page.id)).toBe(0);

    // Sent again at once with the fresh token, as the page's script does: stored.
    const retry = await t.submit(page.slug, { email: 'overnight@example.com', consent: true, formToken: expired.body.formToken });
    expect(retry).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(1);
    // A fresh token is for its own page only.
    const elsewhere = await t.createPage(pro);
    await t.submit(elsewhere.slug, { email: 'overnight@example.com', consent: true, formToken: expired.body.formToken });
    expect(await t.leadCount(elsewhere.id)).toBe(0);
  });

  it('gives a no-JavaScript visitor whose token expired the form back, e-mail kept, with a fresh token, and takes the next press', async () => {
    const page = await t.createPage(pro);
    const expired = await t.formPost(`/${page.slug}`, { email: 'tab-left-open@example.com', consent: 'on', formToken: t.formToken(page.id, TWO_HOURS + 1) });
    expect(expired.status).toBe(409);
    const html = await expired.text();
    expect(html).toContain('Please press Subscribe again.');
    expect(html).toContain('value="tab-left-open@example.com"');
    const fresh = TOKEN_FIELD.exec(html)?.[1];
    expect(fresh).toMatch(/^v1\./);
    expect(await t.leadCount(page.id)).toBe(0);

    // The visitor presses Subscribe again at once: the form's new token is good.
    const again = await t.formPost(`/${page.slug}`, { email: 'tab-left-open@example.com', consent: 'on', formToken: fresh! });
    expect(again.status).toBe(303);
    expect(await t.leadCount(page.id)).toBe(1);
  });

  it('keeps the visitor\'s own token in a form re-drawn after an error, and gives one to a form that had none', async () => {
    const page = await t.createPage(pro);
    const own = t.formToken(page.id);
    const noConsent = await t.formPost(`/${page.slug}`, { email: 'forgot-the-box@example.com', formToken: own });
    expect(noConsent.status).toBe(400);
    expect(TOKEN_FIELD.exec(await noConsent.text())?.[1]).toBe(own);
    const bad = await t.formPost(`/${page.slug}`, { email: 'not an email', consent: 'on', formToken: '' });
    expect(TOKEN_FIELD.exec(await bad.text())?.[1]).toMatch(/^v1\./);
  });

  it('refuses throwaway domains and domains that receive no mail with a message (400), unless the page takes them', async () => {
    const page = await t.createPage(pro);
    const throwaway = await t.submit(page.slug, { email: 'someone@mailinator.com', consent: true });
    expect(throwaway).toMatchObject({ status: 400, body: { message: 'Please use a permanent e-mail address.' } });
    const noMail = await t.submit(page.slug, { email: 'someone@nowhere.example', consent: true });
    expect(noMail).toMatchObject({ status: 400, body: { message: 'This e-mail domain does not receive mail.' } });
    const noDomain = await t.submit(page.slug, { email: 'someone@no-such-domain.example', consent: true });
    expect(noDomain).toMatchObject({ status: 400, body: { message: 'This e-mail domain does not receive mail.' } });
    // The form without JavaScript shows the message above the form, the address kept.
    const form = await t.formPost(`/${page.slug}`, { email: 'someone@mailinator.com', consent: 'on' });
    expect(form.status).toBe(400);
    const html = await form.text();
    expect(html).toContain('Please use a permanent e-mail address.');
    expect(html).toContain('value="someone@mailinator.com"');
    expect(await t.leadCount(page.id)).toBe(0);

    // An MX record, or an A record alone, is a domain that receives mail.
    expect(await t.submit(page.slug, { email: 'ann@example.com', consent: true })).toMatchObject(okAnswer);
    expect(await t.submit(page.slug, { email: 'bob@only-a.example', consent: true })).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(2);
    expect(await blocked(page.id, { disposable: 2, noMx: 2 })).toEqual({ ...NONE, disposable: 2, noMx: 2 });
    // Kept per hour (for rules about a page's recent refusals), summed by the stats.
    const hours = await t.db.query("select reason, count::int, hour >= date_trunc('hour', now() - interval '1 minute') as this_hour from leads.blocked_submissions where page_id = $1 order by reason", [page.id]);
    expect(hours.rows).toEqual([
      { reason: 'disposable', count: 2, this_hour: true },
      { reason: 'noMx', count: 2, this_hour: true },
    ]);

    // The creator turned "Refuse throwaway addresses" off: both are taken.
    await t.pages.update(page, { refuseThrowaway: false });
    expect(await t.submit(page.slug, { email: 'someone@mailinator.com', consent: true })).toMatchObject(okAnswer);
    expect(await t.submit(page.slug, { email: 'someone@nowhere.example', consent: true })).toMatchObject(okAnswer);
    expect(await t.leadCount(page.id)).toBe(4);
  });
});
