import { QueueName, type JobPayload } from '@plink/contracts';
import { LeadsTestApp, type Creator } from '../testing/leads-test-app';

/**
 * The jobs a new lead records for the notifications service (file e-mail, Pro webhook), with what they send
 * (see LeadsTestApp). The e-mail as notifications writes it is tested in the gateway.
 */
describe('leads: the jobs a lead records', () => {
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

  it('sends no file e-mail for a page without a file', async () => {
    const page = await t.createPage(pro);
    expect((await t.submit(page.slug, { email: 'nofile@example.com', consent: true })).status).toBe(200);
    const id = await t.leadId(page.id, 'nofile@example.com');
    expect(id).toBeGreaterThan(0);
    await t.outboxDrained();
    expect(await fileDeliveries(id)).toHaveLength(0);
  });

  it('records the file e-mail with what it shows (the e-mail worker reads no lead or page)', async () => {
    const page = await t.createPage(pro, { title: 'Carried', fileUrl: 'https://files.example/carried.pdf' });
    await t.submit(page.slug, { email: 'Carried@Example.com', consent: true });
    const id = await t.leadId(page.id, 'Carried@Example.com');
    await t.outboxDrained();
    expect((await fileDeliveries(id)).map((j) => j.data.payload)).toEqual([
      {
        v: 1,
        leadId: id,
        to: 'Carried@Example.com',
        page: { id: page.id, title: 'Carried', fileUrl: 'https://files.example/carried.pdf' },
        // Facts without a delivery e-mail (pages before it): the standard e-mail, from the owner's name.
        senderName: pro.username,
        replyTo: null,
        subject: null,
        bodyHtml: null,
        buttonColor: page.public.buttonColor,
        branding: page.public.showBranding,
      },
    ]);
  });

  it("records the file e-mail as the creator wrote it: sender, reply-to, subject, text, button colour and branding", async () => {
    const page = await t.createPage(pro, {
      title: 'Guide',
      fileUrl: 'https://files.example/guide.pdf',
      buttonColor: '#ff8800',
      showBranding: false,
      deliveryEmail: { senderName: 'Ana from Guide', replyTo: 'ana@creator.example', subject: 'Your guide, as promised', bodyHtml: '<p>Enjoy!</p>' },
    });
    await t.submit(page.slug, { email: 'reader@example.com', consent: true });
    const id = await t.leadId(page.id, 'reader@example.com');
    await t.outboxDrained();
    expect((await fileDeliveries(id)).map((j) => j.data.payload)).toEqual([
      {
        v: 1,
        leadId: id,
        to: 'reader@example.com',
        page: { id: page.id, title: 'Guide', fileUrl: 'https://files.example/guide.pdf' },
        senderName: 'Ana from Guide',
        replyTo: 'ana@creator.example',
        subject: 'Your guide, as promised',
        bodyHtml: '<p>Enjoy!</p>',
        buttonColor: '#ff8800',
        branding: false,
      },
    ]);

    // A later edit of the e-mail reaches the next lead's job.
    await t.pages.update(page, { deliveryEmail: { senderName: 'Ana', replyTo: null, subject: null, bodyHtml: null } });
    await t.submit(page.slug, { email: 'second@example.com', consent: true });
    const second = await t.leadId(page.id, 'second@example.com');
    await t.outboxDrained();
    expect((await fileDeliveries(second))[0]?.data.payload).toMatchObject({ senderName: 'Ana', replyTo: null, subject: null, bodyHtml: null });
  });

  it('records a webhook delivery only for a Pro owner’s page with a webhook URL', async () => {
    const withHook = await t.createPage(pro, { webhookUrl: 'https://hooks.example/plink' });
    const withoutHook = await t.createPage(pro);
    const free = await t.creator('free');
    const freePage = await t.createPage(free, { webhookUrl: 'https://hooks.example/free' });
    for (const page of [withHook, withoutHook, freePage]) {
      // As the page's script sends it: where the visitor came from and the page's query.
      const came = { referrer: 'https://www.news.example/issue-1', query: '?utm_source=News&utm_medium=email&utm_campaign=launch' };
      expect((await t.submit(page.slug, { email: 'hooked@example.com', consent: true, ...came })).status).toBe(200);
    }
    await t.outboxDrained();
    // The leads' deliveries reach the queue together (a 'webhook.deliver-many' job holds those of one relay pass).
    const deliveries = async () =>
      (await t.jobsOf(QueueName.Webhooks, 'webhook.deliver-many')).flatMap((j) => (j.data.payload as JobPayload<'webhook.deliver-many'>).jobs.map((m) => m.payload));
    const hookJobs = await deliveries();
    const forPage = (pageId: number) => hookJobs.filter((payload) => payload.pageId === pageId);
    const [lead] = (await t.db.query('select id, created_at, plan_version from leads.leads where page_id = $1', [withHook.id])).rows;
    const [facts] = (await t.db.query('select version from leads.page_facts where page_id = $1', [withHook.id])).rows;
    expect(lead.plan_version).toBeGreaterThan(0);
    expect(forPage(withHook.id)).toEqual([
      {
        v: 1,
        leadId: lead.id,
        pageId: withHook.id,
        email: 'hooked@example.com',
        createdAt: expect.any(String),
        consentAt: expect.any(String),
        page: { slug: withHook.slug, title: withHook.title, url: `${t.config.publicOrigin}/${withHook.slug}` },
        // The version of the page's facts the capture used (the delivery waits when its copy is older), and the
        // owner's plan version it read (kept on the lead too: the plan in force for it).
        pageVersion: Number(facts.version),
        planVersion: lead.plan_version,
        // Where the lead came from (the webhook's data.source); node's fetch is no phone or tablet.
        source: { referrer: 'news.example', utmSource: 'news', utmMedium: 'email', utmCampaign: 'launch', device: 'desktop' },
      },
    ]);
    // The lead's creation time is the stored one (written by the statement that stored the lead).
    const [delivery] = forPage(withHook.id);
    expect(new Date(delivery.createdAt).getTime()).toBe(new Date(lead.created_at).getTime());
    expect(forPage(withoutHook.id)).toHaveLength(0);
    expect(forPage(freePage.id)).toHaveLength(0);
    // A repeat records nothing more.
    await t.submit(withHook.slug, { email: 'HOOKED@example.com', consent: true });
    await t.outboxDrained();
    expect((await deliveries()).filter((payload) => payload.pageId === withHook.id)).toHaveLength(1);
  });
});
