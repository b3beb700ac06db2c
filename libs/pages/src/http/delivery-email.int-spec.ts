import { Queue } from 'bullmq';
import { DeliveryEmailTexts, PageMessages, QueueName } from '@plink/contracts';
import { recordedJobs } from '@plink/contracts/testing';
import { eventually } from '@plink/testing';
import { TEST_EMAILS_PER_WINDOW, TEST_EMAIL_NEEDS_FILE } from '../use-cases/send-test-email.service';
import { PagesTestApp, type Creator } from '../testing/pages-test-app';

/** A page's delivery e-mail: its fields, what 'page.changed' tells the leads service, and "Send me a test". */
describe('delivery e-mail', () => {
  let t: PagesTestApp;
  let owner: Creator;

  beforeAll(async () => {
    t = await PagesTestApp.start();
    // Pro: a Free creator keeps one page, and these tests make several.
    owner = await t.creator({ premium: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  let n = 0;
  const slug = () => `mail-${Date.now().toString(36)}-${(n += 1)}`;

  /**
   * The payloads of a job or event recorded so far, whether still in the outbox or relayed to its queue (a
   * relayed job keeps the outbox row's id: one met in both places counts once).
   */
  async function recorded(queue: QueueName, name: string): Promise<Record<string, any>[]> {
    const q = new Queue(queue, { connection: { url: t.config.redisUrl }, prefix: `${t.config.redisPrefix}bull` });
    const jobs = await q.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    await q.close();
    const rows = await t.db.query('select id, payload from platform.outbox where job_name = $1 and queue = $2', [name, queue]);
    const byId = new Map<string, Record<string, any>>(rows.rows.map((r) => [String(r.id), r.payload]));
    // Jobs the relay grouped come out one by one with their group's id: the first keeps it (its row's id), the others get their own key.
    const queued = recordedJobs(jobs, name);
    queued.forEach((job, i) => byId.set(i > 0 && queued[i - 1].id === job.id ? `${job.id}#${i}` : String(job.id), job.data.payload));
    return [...byId.values()];
  }

  /** The newest 'page.changed' the leads service is told about a page, once one has the facts `ready` wants. */
  const newestFacts = (pageId: number, ready: (facts: Record<string, any>) => boolean) =>
    eventually(async () => {
      const facts = (await recorded(QueueName.Leads, 'page.changed')).filter((p) => p.pageId === pageId).sort((a, b) => a.version - b.version);
      const newest = facts.at(-1)?.page;
      return newest && ready(newest) ? newest : undefined;
    });
  const testMails = (pageId: number, count: number) =>
    eventually(async () => {
      const mails = (await recorded(QueueName.Email, 'email.file-delivery')).filter((p) => p.page.id === pageId);
      return mails.length >= count ? mails : undefined;
    });

  it('is null by default, stores what the creator writes with the text sanitised, and stays off the public page', async () => {
    const s = slug();
    const created = (await owner.client.post('/api/pages', { slug: s })).body;
    expect([created.emailSenderName, created.emailReplyTo, created.emailSubject, created.emailBody]).toEqual([null, null, null, null]);

    const saved = await owner.client.put(`/api/pages/${created.id}`, {
      emailSenderName: ' Ana from the Guide ',
      emailReplyTo: 'ana@example.com',
      emailSubject: 'Your guide is here',
      emailBody: '<p onclick="x()">Enjoy <a href="javascript:alert(1)">this</a> and <a href="https://ana.example">my site</a></p><script>alert(1)</script>',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ emailSenderName: 'Ana from the Guide', emailReplyTo: 'ana@example.com', emailSubject: 'Your guide is here' });
    expect(saved.body.emailBody).toBe(
      '<p>Enjoy <a>this</a> and <a href="https://ana.example" rel="nofollow noopener noreferrer" target="_blank">my site</a></p>',
    );

    const visitor = (await t.client().get(`/api/page/${s}`)).body;
    for (const field of ['emailSenderName', 'emailReplyTo', 'emailSubject', 'emailBody']) expect(visitor).not.toHaveProperty(field);
  });

  it('refuses a sender name or subject with a line break (header injection)', async () => {
    const created = (await owner.client.post('/api/pages', { slug: slug() })).body;
    const refused = await owner.client.put(`/api/pages/${created.id}`, { emailSenderName: 'Ana\r\nBcc: all@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(DeliveryEmailTexts.oneLine('Sender name'));
    const subject = await owner.client.put(`/api/pages/${created.id}`, { emailSubject: 'Hi\nBcc: all@example.com' });
    expect(subject.body.message).toBe(DeliveryEmailTexts.oneLine('Subject'));
  });

  it("tells the leads service the e-mail, with the owner's address as the reply-to when the page names none", async () => {
    const created = (await owner.client.post('/api/pages', { slug: slug(), fileUrl: 'https://files.example/g.pdf' })).body;
    expect((await newestFacts(created.id, () => true)).deliveryEmail).toEqual({ senderName: owner.username, replyTo: owner.email, subject: null, bodyHtml: null });
    await owner.client.put(`/api/pages/${created.id}`, { emailSenderName: 'Ana', emailReplyTo: 'help@ana.example', emailBody: '<p>Hello</p>' });
    const changed = await newestFacts(created.id, (facts) => facts.deliveryEmail?.senderName === 'Ana');
    expect(changed.deliveryEmail).toEqual({ senderName: 'Ana', replyTo: 'help@ana.example', subject: null, bodyHtml: '<p>Hello</p>' });
  });

  describe('Send me a test', () => {
    it("records the e-mail with the editor's unsaved values, to the creator's own address only", async () => {
      const creator = await t.creator();
      const page = (await creator.client.post('/api/pages', { slug: slug(), title: 'Guide', fileUrl: 'https://files.example/g.pdf', buttonColor: '#123456' })).body;
      const sent = await creator.client.post(`/api/pages/${page.id}/test-email`, {
        emailSenderName: 'Draft name',
        emailReplyTo: 'replies@ana.example',
        emailSubject: 'Draft subject',
        emailBody: '<p>Draft <script>x</script>text</p>',
        buttonColor: '#ff8800',
        // Not a field of the call: it never chooses the recipient.
        to: 'someone.else@example.com',
      });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ message: DeliveryEmailTexts.testSent(creator.email) });
      expect(await testMails(page.id, 1)).toEqual([
          {
            v: 1,
            test: true,
            to: creator.email,
            page: { id: page.id, title: 'Guide', fileUrl: 'https://files.example/g.pdf' },
            senderName: 'Draft name',
            replyTo: 'replies@ana.example',
            subject: 'Draft subject',
            bodyHtml: '<p>Draft text</p>',
            buttonColor: '#ff8800',
            branding: true,
          },
        ]);
      // The page itself is unchanged: the test sends, it does not save.
      expect((await creator.client.get(`/api/pages/${page.id}`)).body.emailSubject).toBeNull();
    });

    it('is refused for an unverified creator, for a page of somebody else, without a file, and for a header injection', async () => {
      const unverified = await t.creator({ verified: false });
      const theirs = (await owner.client.post('/api/pages', { slug: slug(), fileUrl: 'https://files.example/g.pdf' })).body;
      const refused = await unverified.client.post(`/api/pages/${theirs.id}/test-email`, {});
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(DeliveryEmailTexts.testNeedsVerified);

      const other = await t.creator();
      expect((await other.client.post(`/api/pages/${theirs.id}/test-email`, {})).body.message).toBe(PageMessages.pageNotFound);

      const noFile = (await owner.client.post('/api/pages', { slug: slug() })).body;
      const withoutFile = await owner.client.post(`/api/pages/${noFile.id}/test-email`, {});
      expect(withoutFile.status).toBe(400);
      expect(withoutFile.body.message).toBe(TEST_EMAIL_NEEDS_FILE);

      const injected = await owner.client.post(`/api/pages/${theirs.id}/test-email`, { emailSubject: 'Hi\r\nBcc: all@example.com' });
      expect(injected.status).toBe(400);
      expect(injected.body.message).toBe(DeliveryEmailTexts.oneLine('Subject'));
      expect((await t.client().post(`/api/pages/${theirs.id}/test-email`, {})).status).toBe(401);
    });

    it(`sends at most ${TEST_EMAILS_PER_WINDOW} tests in a row, then answers 429 with a wait`, async () => {
      const creator = await t.creator();
      const page = (await creator.client.post('/api/pages', { slug: slug(), fileUrl: 'https://files.example/g.pdf' })).body;
      for (let i = 0; i < TEST_EMAILS_PER_WINDOW; i += 1) {
        expect((await creator.client.post(`/api/pages/${page.id}/test-email`, {})).status).toBe(200);
      }
      const limited = await creator.client.post(`/api/pages/${page.id}/test-email`, {});
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(DeliveryEmailTexts.testTooMany);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await testMails(page.id, TEST_EMAILS_PER_WINDOW)).toHaveLength(TEST_EMAILS_PER_WINDOW);
    });
  });
});
