import { Queue } from 'bullmq';
import { QueueName } from '@plink/contracts';
import { eventually } from '@plink/testing';
import { PagesTestApp, type Creator } from '../testing/pages-test-app';

/** A page's double opt-in switch: any plan, the thank-you text visitors then see, and what 'page.changed' tells the leads service. */
describe('double opt-in page field', () => {
  let t: PagesTestApp;
  let free: Creator;

  beforeAll(async () => {
    t = await PagesTestApp.start();
    free = await t.creator();
  });

  afterAll(async () => {
    await t?.close();
  });

  /** The newest 'page.changed' facts of a page, relayed or still in the outbox, once `ready` says so. */
  const newestFacts = (pageId: number, ready: (facts: Record<string, any>) => boolean) =>
    eventually(async () => {
      const q = new Queue(QueueName.Leads, { connection: { url: t.config.redisUrl }, prefix: `${t.config.redisPrefix}bull` });
      const jobs = await q.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
      await q.close();
      const rows = await t.db.query("select payload from platform.outbox where job_name = 'page.changed'");
      const all = [...rows.rows.map((r) => r.payload), ...jobs.filter((j) => j.name === 'page.changed').map((j) => j.data.payload)];
      const newest = all.filter((p) => p.pageId === pageId).sort((a, b) => a.version - b.version).at(-1)?.page;
      return newest && ready(newest) ? newest : undefined;
    });

  it('is off by default, a Free creator may turn it on, and the standard thank-you text then asks to confirm', async () => {
    const slug = `doi-${Date.now().toString(36)}`;
    const created = (await free.client.post('/api/pages', { slug })).body;
    expect(created.doubleOptIn).toBe(false);
    expect((await t.client().get(`/api/page/${slug}`)).body).toMatchObject({ doubleOptIn: false, thankYouSubtext: 'Check your email for your download link.' });

    const saved = await free.client.put(`/api/pages/${created.id}`, { doubleOptIn: true });
    expect(saved.status).toBe(200);
    // The owner's page keeps the text as written; visitors see the confirmation hint.
    expect(saved.body).toMatchObject({ doubleOptIn: true, thankYouSubtext: 'Check your email for your download link.', pending: 0 });
    expect((await t.client().get(`/api/page/${slug}`)).body).toMatchObject({ doubleOptIn: true, thankYouSubtext: 'Check your inbox to confirm your e-mail.' });
    expect((await t.client().get(`/${slug}?submitted=1`)).text).toContain('Check your inbox to confirm your e-mail.');
    const facts = await newestFacts(created.id, (f) => f.public.doubleOptIn === true);
    expect(facts.public.thankYouSubtext).toBe('Check your inbox to confirm your e-mail.');

    // A text the creator wrote stays theirs.
    await free.client.put(`/api/pages/${created.id}`, { thankYouSubtext: 'Almost there: look for our e-mail.' });
    expect((await t.client().get(`/api/page/${slug}`)).body.thankYouSubtext).toBe('Almost there: look for our e-mail.');
  });
});
