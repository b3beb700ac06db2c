import { LeadMessages, QueueName, type JobPayload } from '@plink/contracts';
import { pollUntil } from '@plink/testing';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';

/** A creator deletes leads of their page (erasure): the list, the export and the counts follow; the webhooks are told. */
describe('leads: deletion by the creator', () => {
  let t: LeadsTestApp;
  let owner: Creator;

  beforeAll(async () => {
    t = await LeadsTestApp.start();
    owner = await t.creator('pro');
  });

  afterAll(async () => {
    await t?.close();
  });

  const download = async (pageId: number) =>
    (await (await fetch(`${t.origin}/api/pages/${pageId}/export`, { headers: { cookie: owner.client.cookieHeader() } })).text()).trimEnd().split('\n').slice(1).map((l) => l.split(',')[0]);
  const pageWith = async (emails: string[]) => {
    const page = await t.createPage(owner);
    page.views = 10;
    for (const email of emails) expect((await t.submit(page.slug, { email, consent: true })).status).toBe(200);
    return page;
  };
  /** The 'leads.deleted' events relayed to the notifications service's queue, for a page. */
  const deletedEvents = async (pageId: number) =>
    (await t.jobsOf(QueueName.Webhooks, 'leads.deleted')).map((j) => j.data.payload as JobPayload<'leads.deleted'>).filter((p) => p.pageId === pageId);

  it('deletes one lead: gone from the list, the export and the counts (views stay), and the notifications service is told', async () => {
    const page = await pageWith(['ann@example.com', 'bob@example.com', 'cy@example.com']);
    const bob = await t.leadId(page.id, 'bob@example.com');

    const res = await owner.client.delete(`/api/pages/${page.id}/leads/${bob}`);
    expect(res).toMatchObject({ status: 200, body: { deleted: 1, message: '1 lead deleted' } });

    const stats = await owner.client.get(`/api/pages/${page.id}/stats`);
    expect(stats.body).toMatchObject({ views: 10, conversions: 2, conversionRate: 20 });
    expect(stats.body.leads.map((l: { email: string }) => l.email)).toEqual(['cy@example.com', 'ann@example.com']);
    expect((await owner.client.get(`/api/pages/${page.id}/leads`)).body).toMatchObject({ total: 2 });
    expect(await download(page.id)).toEqual(['ann@example.com', 'cy@example.com']);
    expect(await t.leadCount(page.id)).toBe(2);
    expect(await pollUntil(() => deletedEvents(page.id), (e) => e.length === 1, 5_000)).toEqual([{ v: 1, pageId: page.id, leadIds: [bob] }]);

    // The same lead again, or one the page never had: 404, nothing changes.
    expect(await owner.client.delete(`/api/pages/${page.id}/leads/${bob}`)).toMatchObject({ status: 404, body: { message: LeadMessages.leadNotFound } });
    expect(await owner.client.delete(`/api/pages/${page.id}/leads/abc`)).toMatchObject({ status: 404, body: { message: LeadMessages.leadNotFound } });
    expect(await t.conversions(page.id)).toBe(2);
  });

  it('deletes a selection, never another page’s lead named in it', async () => {
    const page = await pageWith(['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    const other = await pageWith(['z@example.com']);
    const ids = await Promise.all(['a@example.com', 'c@example.com', 'd@example.com'].map((e) => t.leadId(page.id, e)));
    const foreign = await t.leadId(other.id, 'z@example.com');

    const res = await owner.client.post(`/api/pages/${page.id}/leads/delete`, { ids: [...ids, ids[0], foreign] });
    expect(res).toMatchObject({ status: 200, body: { deleted: 3, message: '3 leads deleted' } });
    expect(await download(page.id)).toEqual(['b@example.com']);
    expect((await owner.client.get(`/api/pages/${page.id}/stats`)).body).toMatchObject({ views: 10, conversions: 1 });
    expect(await t.leadCount(other.id)).toBe(1);
    expect(await t.conversions(other.id)).toBe(1);
    expect(await pollUntil(() => deletedEvents(page.id), (e) => e.length === 1, 5_000)).toEqual([{ v: 1, pageId: page.id, leadIds: [...ids].sort((x, y) => x - y) }]);
  });

  it('refuses bad ids with a clear message and changes nothing', async () => {
    const page = await pageWith(['keep@example.com']);
    const id = await t.leadId(page.id, 'keep@example.com');
    for (const body of [{}, { ids: [] }, { ids: 'all' }, { ids: ['1'] }, { ids: [0] }, { ids: [1.5] }, { ids: [-3] }, { ids: [2_147_483_648] }, { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, [id]]) {
      const res = await owner.client.post(`/api/pages/${page.id}/leads/delete`, body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { message: LeadMessages.invalidLeadIds } });
    }
    // 1000 ids are taken (the ones the page does not have are not counted).
    expect((await owner.client.post(`/api/pages/${page.id}/leads/delete`, { ids: Array.from({ length: 1000 }, (_, i) => 2_000_000_000 + i) })).body).toEqual({ deleted: 0, message: '0 leads deleted' });
    expect(await t.leadCount(page.id)).toBe(1);
    expect(await deletedEvents(page.id)).toEqual([]);
  });

  it("lets only the page's owner delete: another creator's page is a 404, a visitor a 401", async () => {
    const page = await pageWith(['mine@example.com']);
    const id = await t.leadId(page.id, 'mine@example.com');
    const stranger = await t.creator('pro');
    for (const res of [await stranger.client.delete(`/api/pages/${page.id}/leads/${id}`), await stranger.client.post(`/api/pages/${page.id}/leads/delete`, { ids: [id] })]) {
      expect(res).toMatchObject({ status: 404, body: { message: 'Page not found' } });
    }
    expect((await t.client().delete(`/api/pages/${page.id}/leads/${id}`)).status).toBe(401);
    expect((await t.client().post(`/api/pages/${page.id}/leads/delete`, { ids: [id] })).status).toBe(401);
    expect(await t.leadCount(page.id)).toBe(1);
  });

  it('does not count a deleted pending sign-up off the conversions (it was never one)', async () => {
    const page = await t.createPage(owner, { doubleOptIn: true });
    await t.submit(page.slug, { email: 'pending@example.com', consent: true });
    const id = await t.leadId(page.id, 'pending@example.com');
    expect((await owner.client.delete(`/api/pages/${page.id}/leads/${id}`)).status).toBe(200);
    expect((await owner.client.get(`/api/pages/${page.id}/stats`)).body).toMatchObject({ conversions: 0, pending: 0 });
    expect((await t.db.query('select count(*)::int as n from leads.confirm_tokens where lead_id = $1', [id])).rows[0].n).toBe(0);
  });
});
