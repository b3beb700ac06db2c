import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { consentStatement } from '@plink/page-render';
import { initLogger } from '@plink/observability';
import { QueueName } from '@plink/contracts';
import { unseal } from '@plink/crypto';
import { LeadsTestApp, okAnswer, type Creator } from '../testing/leads-test-app';

/** The version a lead records: the SHA-256 of the exact label the page shows. */
const SHOWN = 'I agree to the privacy policy';
const SHOWN_VERSION = createHash('sha256').update(SHOWN, 'utf8').digest('hex');

interface StoredEvidence {
  consent_at: Date | null;
  consent_shown: boolean | null;
  consent_version: string | null;
  privacy_url: string | null;
  signup_ip: string | null;
  signup_user_agent: string | null;
}

async function evidence(t: LeadsTestApp, pageId: number, email: string): Promise<StoredEvidence> {
  const { rows } = await t.db.query<StoredEvidence>(
    `select consent_at, consent_shown, consent_version, privacy_url, host(signup_ip) as signup_ip, signup_user_agent
       from leads.leads where page_id = $1 and email_lower = lower($2)`,
    [pageId, email],
  );
  return rows[0];
}

/**
 * Each lead's proof of consent as a creator would show it to an authority: what the capture stores for a JSON
 * submission and a form post (the text the page showed, its version, the privacy link, and with
 * LEAD_EVIDENCE=full the visitor's address behind the trusted proxy and their user agent), the one row per
 * distinct text, the owner-only record call, and the logs, which never hold the visitor's address or browser.
 */
describe('leads: consent record (LEAD_EVIDENCE=full, behind one trusted proxy)', () => {
  let t: LeadsTestApp;
  let owner: Creator;
  const logLines: string[] = [];

  beforeAll(async () => {
    initLogger({
      level: 'trace',
      pretty: false,
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    });
    t = await LeadsTestApp.start({ TRUST_PROXY: '1', LOG_LEVEL: 'trace' });
    owner = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('stores the text shown, its version, the privacy link, and the address and browser of a JSON submission', async () => {
    const page = await t.createPage(owner);
    const visitor = t.client({ 'x-forwarded-for': '203.0.113.7', 'user-agent': 'Mozilla/5.0 (JSON visitor)' });
    expect(await t.submit(page.slug, { email: 'Ada@Example.com', consent: true }, visitor)).toMatchObject(okAnswer);

    const stored = await evidence(t, page.id, 'ada@example.com');
    expect(stored).toEqual({
      consent_at: expect.any(Date),
      consent_shown: true,
      consent_version: SHOWN_VERSION,
      privacy_url: `${t.config.publicOrigin}/privacy`,
      signup_ip: '203.0.113.7',
      signup_user_agent: 'Mozilla/5.0 (JSON visitor)',
    });
    // The text is the one the renderer draws on that page, word for word.
    expect(consentStatement(page.public)?.text).toBe(SHOWN);
    const texts = await t.db.query('select version, text from leads.consent_texts');
    expect(texts.rows).toEqual([{ version: SHOWN_VERSION, text: SHOWN }]);
  });

  it('stores the same for the form posted without JavaScript, and cuts a long user agent to 512 characters', async () => {
    const page = await t.createPage(owner);
    const longAgent = `Mozilla/5.0 ${'x'.repeat(700)}`;
    const res = await t.formPost(`/${page.slug}`, { email: 'grace@example.com', consent: 'on' }, { 'x-forwarded-for': '2001:db8::42', 'user-agent': longAgent });
    expect(res.status).toBe(303);

    expect(await evidence(t, page.id, 'grace@example.com')).toEqual({
      consent_at: expect.any(Date),
      consent_shown: true,
      consent_version: SHOWN_VERSION,
      privacy_url: `${t.config.publicOrigin}/privacy`,
      signup_ip: '2001:db8::42',
      signup_user_agent: longAgent.slice(0, 512),
    });
  });

  it('records that no consent text was shown when the page hides the checkbox', async () => {
    const page = await t.createPage(owner, { hidePrivacyPolicyCheckbox: true });
    const visitor = t.client({ 'x-forwarded-for': '198.51.100.3', 'user-agent': 'Quiet/1.0' });
    expect(await t.submit(page.slug, { email: 'quiet@example.com' }, visitor)).toMatchObject(okAnswer);

    expect(await evidence(t, page.id, 'quiet@example.com')).toEqual({
      consent_at: null,
      consent_shown: false,
      consent_version: null,
      privacy_url: null,
      signup_ip: '198.51.100.3',
      signup_user_agent: 'Quiet/1.0',
    });
  });

  it('keeps one row per distinct consent text, however many leads and pages show it', async () => {
    for (let p = 0; p < 3; p += 1) {
      const page = await t.createPage(owner);
      await Promise.all(Array.from({ length: 10 }, (_, i) => t.submit(page.slug, { email: `many${p}-${i}@example.com`, consent: true })));
      expect(await t.leadCount(page.id)).toBe(10);
    }
    const texts = await t.db.query('select count(*)::int as n from leads.consent_texts');
    expect(texts.rows[0].n).toBe(1);
    const versions = await t.db.query("select distinct consent_version from leads.leads where email like 'many%'");
    expect(versions.rows).toEqual([{ consent_version: SHOWN_VERSION }]);
  });

  it("records the creator's own terms when the page names them: their name in the text, their policy as the link", async () => {
    const page = await t.createPage(owner, { privacyPolicyUrl: 'https://ann.example/privacy', controllerName: 'Ann Adams Studio' });
    await t.submit(page.slug, { email: 'terms@example.com', consent: true });
    const leadId = await t.leadId(page.id, 'terms@example.com');
    const text = 'I agree to the privacy policy of Ann Adams Studio';
    const record = (await owner.client.get(`/api/pages/${page.id}/leads/${leadId}/consent`)).body;
    expect(record).toMatchObject({ consentShown: true, consentText: text, privacyUrl: 'https://ann.example/privacy' });
    expect(record.consentVersion).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(text).toBe(consentStatement({ hidePrivacyPolicyCheckbox: false, privacyPolicyUrl: 'https://ann.example/privacy', controllerName: 'Ann Adams Studio' })!.text);
  });

  it('answers the record to the page’s owner, and the same 404 to anyone else or for a lead the page does not have', async () => {
    const page = await t.createPage(owner);
    const visitor = t.client({ 'x-forwarded-for': '192.0.2.10', 'user-agent': 'Record/2.0' });
    await t.submit(page.slug, { email: 'proof@example.com', consent: true }, visitor);
    const leadId = await t.leadId(page.id, 'proof@example.com');
    const row = (await t.db.query('select created_at, consent_at from leads.leads where id = $1', [leadId])).rows[0];

    const res = await owner.client.get(`/api/pages/${page.id}/leads/${leadId}/consent`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      leadId,
      pageId: page.id,
      email: 'proof@example.com',
      consentShown: true,
      consentAt: row.consent_at.toISOString(),
      consentText: SHOWN,
      consentVersion: SHOWN_VERSION,
      privacyUrl: `${t.config.publicOrigin}/privacy`,
      signup: { at: row.created_at.toISOString(), ip: '192.0.2.10', userAgent: 'Record/2.0' },
      confirmation: null,
    });

    const stranger = await t.creator('free');
    expect(await stranger.client.get(`/api/pages/${page.id}/leads/${leadId}/consent`)).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    const other = await t.createPage(owner);
    for (const path of [
      `/api/pages/${page.id}/leads/${leadId + 100_000}/consent`,
      `/api/pages/${other.id}/leads/${leadId}/consent`,
      `/api/pages/${page.id}/leads/abc/consent`,
      `/api/pages/${page.id}/leads/99999999999/consent`,
    ]) {
      expect({ path, ...(await owner.client.get(path)) }).toMatchObject({ path, status: 404, body: { message: 'Lead not found' } });
    }
    expect((await t.client().get(`/api/pages/${page.id}/leads/${leadId}/consent`)).status).toBe(401);

    // A page that hid its checkbox: the record says no text was shown.
    const hidden = await t.createPage(owner, { hidePrivacyPolicyCheckbox: true });
    await t.submit(hidden.slug, { email: 'nohint@example.com' }, visitor);
    const hiddenRecord = await owner.client.get(`/api/pages/${hidden.id}/leads/${await t.leadId(hidden.id, 'nohint@example.com')}/consent`);
    expect(hiddenRecord.body).toMatchObject({ consentShown: false, consentAt: null, consentText: null, consentVersion: null, privacyUrl: null });
  });

  it('writes neither the visitor’s address nor their browser to any log line, at trace level', async () => {
    const page = await t.createPage(owner);
    const ip = '203.0.113.199';
    const agent = 'LogProbe/9.9 (never-logged)';
    const headers = { 'x-forwarded-for': ip, 'user-agent': agent };
    logLines.length = 0;
    await t.submit(page.slug, { email: 'logged@example.com', consent: true }, t.client(headers));
    await t.submit(page.slug, { email: 'bad-address', consent: true }, t.client(headers)); // refused: 400
    await t.formPost(`/${page.slug}`, { email: 'form@example.com', consent: 'on' }, headers); // its access line
    await t.formPost(`/${page.slug}`, { email: 'form2@example.com' }, headers); // refused: consent missing
    const leadId = await t.leadId(page.id, 'logged@example.com');
    expect((await owner.client.get(`/api/pages/${page.id}/leads/${leadId}/consent`)).body.signup).toEqual({ at: expect.any(String), ip, userAgent: agent });

    // Something was logged (the access lines of the form posts and the record call), and none of it names the visitor.
    expect(logLines.some((line) => line.includes('"route":"/api/pages/:id/leads/:leadId/consent"'))).toBe(true);
    expect(logLines.filter((line) => line.includes(ip) || line.includes('LogProbe'))).toEqual([]);
  });
});

describe('leads: consent record (LEAD_EVIDENCE=minimal)', () => {
  let t: LeadsTestApp;
  let owner: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start({ TRUST_PROXY: '1', LEAD_EVIDENCE: 'minimal' });
    owner = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('keeps the time of a double opt-in confirmation, but not the address or browser that confirmed', async () => {
    const page = await t.createPage(owner, { doubleOptIn: true });
    const headers = { 'x-forwarded-for': '203.0.113.52', 'user-agent': 'Minimal/1.0' };
    await t.submit(page.slug, { email: 'confirms@example.com', consent: true }, t.client(headers));
    const id = await t.leadId(page.id, 'confirms@example.com');
    await t.outboxDrained();
    const [job] = (await t.jobsOf(QueueName.Email, 'email.lead-confirmation')).filter((j) => j.data.payload.leadId === id);
    const token = unseal(t.config.sessionSecret, job.data.payload.sealedToken);
    expect((await t.client(headers).post(`/api/confirm/${token}`)).status).toBe(200);
    const record = await owner.client.get(`/api/pages/${page.id}/leads/${id}/consent`);
    expect(record.body.confirmation).toEqual({ at: expect.any(String), ip: null, userAgent: null });
    expect(record.body.signup).toMatchObject({ ip: null, userAgent: null });
  });

  it('keeps the times and the text but no address or browser, for a JSON submission and a form post', async () => {
    const page = await t.createPage(owner);
    const headers = { 'x-forwarded-for': '203.0.113.50', 'user-agent': 'Minimal/1.0' };
    expect(await t.submit(page.slug, { email: 'json@example.com', consent: true }, t.client(headers))).toMatchObject(okAnswer);
    expect((await t.formPost(`/${page.slug}`, { email: 'form@example.com', consent: 'on' }, headers)).status).toBe(303);

    for (const email of ['json@example.com', 'form@example.com']) {
      expect(await evidence(t, page.id, email)).toEqual({
        consent_at: expect.any(Date),
        consent_shown: true,
        consent_version: SHOWN_VERSION,
        privacy_url: `${t.config.publicOrigin}/privacy`,
        signup_ip: null,
        signup_user_agent: null,
      });
    }
    const record = await owner.client.get(`/api/pages/${page.id}/leads/${await t.leadId(page.id, 'json@example.com')}/consent`);
    expect(record.body).toMatchObject({ consentText: SHOWN, consentVersion: SHOWN_VERSION, signup: { at: expect.any(String), ip: null, userAgent: null }, confirmation: null });
  });

  it('exports the consent version but no signup_ip column', async () => {
    const page = await t.createPage(owner);
    await t.submit(page.slug, { email: 'csv@example.com', consent: true }, t.client({ 'x-forwarded-for': '203.0.113.51' }));
    const res = await fetch(`${t.origin}/api/pages/${page.id}/export`, { headers: { cookie: owner.client.cookieHeader() } });
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    expect(lines[1]).toMatch(new RegExp(`^csv@example\\.com,[^,]+,[^,]+,${page.slug},confirmed,,${SHOWN_VERSION},,,,,,,,desktop$`));
  });
});
