import { LeadsTestApp, okAnswer, type Creator } from '../testing/leads-test-app';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Each lead keeps where it came from, as it arrived: from the page's script, or from a form post without JavaScript. */
describe('leads: where each lead came from', () => {
  let t: LeadsTestApp;
  let pro: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    pro = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const sourceOf = async (pageId: number, email: string) =>
    (
      await t.db.query('select referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device from leads.leads where page_id = $1 and email_lower = $2', [
        pageId,
        email,
      ])
    ).rows[0];

  it("stores the referrer's domain, the query's ref/source/UTM values and the device the script sends; the CSV has them", async () => {
    const page = await t.createPage(pro);
    const phone = t.client({ 'user-agent': PHONE });
    expect(
      await t.submit(page.slug, { email: 'ada@example.com', consent: true, referrer: 'https://www.Social.example/p/1', query: '?ref=Bio&utm_source=ig&utm_campaign=Spring' }, phone),
    ).toMatchObject(okAnswer);
    // A visitor who came straight to the page, on a desktop browser; junk values are ignored, not refused.
    expect(await t.submit(page.slug, { email: 'bob@example.com', consent: true, referrer: '', query: '' })).toMatchObject(okAnswer);
    expect(await t.submit(page.slug, { email: 'cy@example.com', consent: true, referrer: 42, query: ['x'] })).toMatchObject(okAnswer);
    // A formula in a UTM value is shown as text in the export.
    expect(await t.submit(page.slug, { email: 'dee@example.com', consent: true, query: 'utm_campaign=%3DHYPERLINK(1)' })).toMatchObject(okAnswer);

    expect(await sourceOf(page.id, 'ada@example.com')).toEqual({
      referrer: 'social.example',
      ref: 'bio',
      ref_source: null,
      utm_source: 'ig',
      utm_medium: null,
      utm_campaign: 'spring',
      device: 'phone',
    });
    expect(await sourceOf(page.id, 'bob@example.com')).toEqual({
      referrer: null,
      ref: null,
      ref_source: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      device: 'desktop',
    });
    expect((await sourceOf(page.id, 'cy@example.com')).device).toBe('desktop');

    const csv = await pro.client.get(`/api/pages/${page.id}/export`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    const row = (email: string) => lines.find((l) => l.startsWith(email))!.split(',').slice(-8);
    // `source` by precedence: ref > source > utm_source > referrer.
    expect(row('ada@example.com')).toEqual(['bio', 'social.example', 'bio', '', 'ig', '', 'spring', 'phone']);
    expect(row('bob@example.com')).toEqual(['', '', '', '', '', '', '', 'desktop']);
    expect(lines.find((l) => l.startsWith('dee@example.com'))).toContain("'=hyperlink(1)");
  });

  it("takes a no-JavaScript form post's values from its Referer: the page's own address with the query it was opened with", async () => {
    const page = await t.createPage(pro);
    const res = await t.formPost(`/${page.slug}`, { email: 'form@example.com', consent: 'on' }, {
      'user-agent': PHONE,
      referer: `${t.config.publicOrigin}/${page.slug}?source=newsletter&utm_medium=email`,
    });
    expect(res.status).toBe(303);
    expect(await sourceOf(page.id, 'form@example.com')).toEqual({
      referrer: null, // the page itself is no referrer
      ref: null,
      ref_source: 'newsletter',
      utm_source: null,
      utm_medium: 'email',
      utm_campaign: null,
      device: 'phone',
    });
  });
});
