import type { Client } from 'pg';
import { QueueName, type JobPayload } from '@plink/contracts';
import type { CaughtMail, SmtpCatcher } from '@plink/testing';
import { leadsGateway, type Creator } from './testing/leads-gateway';

/** The jobs a new lead records (file e-mail, Pro webhook), end to end (see leadsGateway). */
describe('leads, end to end: the jobs a lead sends', () => {
  const world = leadsGateway();
  const { creator, createPage, submit, leadId, outboxDrained, jobsOf } = world;
  let smtp: SmtpCatcher;
  let db: Client;
  let pro: Creator;
  beforeAll(() => {
    ({ smtp, db, pro } = world);
  });

  it('e-mails the file link with the page title and nothing the visitor typed', async () => {
    const page = await createPage(pro, { title: 'The <Photo> Guide & more', fileUrl: 'https://files.example/guide.pdf?x=1&y=2' });
    const visitor = "o'brien+tricky-note@example.com";
    expect((await submit(page.slug, { email: visitor, consent: true })).status).toBe(200);
    const mail: CaughtMail = await smtp.waitFor((m) => m.to.includes(visitor));
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.subject).toBe('Your download: The <Photo> Guide & more');
    expect(mail.text).toContain('The <Photo> Guide & more');
    expect(mail.text).toContain('https://files.example/guide.pdf?x=1&y=2');
    expect(mail.html).toContain('The &lt;Photo&gt; Guide &amp; more');
    expect(mail.html).not.toContain('<Photo>');
    expect(mail.html.match(/href="https:\/\/files\.example\/guide\.pdf\?x=1&amp;y=2"/g)).toHaveLength(2);
    expect(mail.text).toContain('Plink');
    // The address is only the recipient: neither body repeats what the visitor typed.
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('brien');
      expect(body).not.toContain('tricky-note');
    }
  });

  it('sends no file e-mail for a page without a file', async () => {
    const page = await createPage(pro);
    await submit(page.slug, { email: 'nofile@example.com', consent: true });
    const id = await leadId(page.id, 'nofile@example.com');
    await outboxDrained();
    expect((await jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.leadId === id)).toHaveLength(0);
    expect(smtp.mailsTo('nofile@example.com')).toHaveLength(0);
  });

  it('records the file e-mail with what it shows (the e-mail worker reads no lead or page)', async () => {
    const page = await createPage(pro, { title: 'Carried', fileUrl: 'https://files.example/carried.pdf' });
    await submit(page.slug, { email: 'Carried@Example.com', consent: true });
    const id = await leadId(page.id, 'Carried@Example.com');
    await outboxDrained();
    const jobs = (await jobsOf(QueueName.Email, 'email.file-delivery')).filter((j) => j.data.payload.leadId === id);
    expect(jobs.map((j) => j.data.payload)).toEqual([
      { v: 1, leadId: id, to: 'Carried@Example.com', page: { id: page.id, title: 'Carried', fileUrl: 'https://files.example/carried.pdf' }, senderName: expect.any(String) },
    ]);
  });

  it('records a webhook delivery only for a Pro owner’s page with a webhook URL', async () => {
    const withHook = await createPage(pro, { webhookUrl: 'https://hooks.example/plink' });
    const withoutHook = await createPage(pro);
    const free = await creator('free');
    const freePage = await createPage(free, { webhookUrl: 'https://hooks.example/free' });
    for (const page of [withHook, withoutHook, freePage]) {
      expect((await submit(page.slug, { email: 'hooked@example.com', consent: true })).status).toBe(200);
    }
    await outboxDrained();
    // The leads' deliveries reach the queue together (a 'webhook.deliver-many' job holds those of one relay pass).
    const deliveries = async () =>
      (await jobsOf(QueueName.Webhooks, 'webhook.deliver-many')).flatMap((j) => (j.data.payload as JobPayload<'webhook.deliver-many'>).jobs.map((m) => m.payload));
    const hookJobs = await deliveries();
    const forPage = (pageId: number) => hookJobs.filter((payload) => payload.pageId === pageId);
    const [lead] = (await db.query('select id, created_at from leads.leads where page_id = $1', [withHook.id])).rows;
    const [facts] = (await db.query('select version from leads.page_facts where page_id = $1', [withHook.id])).rows;
    const [plan] = (await db.query('select l.plan_version from leads.leads l where l.id = $1', [lead.id])).rows;
    expect(plan.plan_version).toBeGreaterThan(0);
    expect(forPage(withHook.id)).toEqual([
      {
        v: 1,
        leadId: lead.id,
        pageId: withHook.id,
        email: 'hooked@example.com',
        createdAt: expect.any(String),
        consentAt: expect.any(String),
        page: { slug: withHook.slug, title: expect.any(String), url: expect.stringMatching(new RegExp(`/${withHook.slug}$`)) },
        // The version of the page's facts the capture used (the delivery waits when its copy is older), and the
        // owner's plan version it read (kept on the lead too: the plan in force for it).
        pageVersion: Number(facts.version),
        planVersion: plan.plan_version,
      },
    ]);
    // The lead's creation time is the stored one (written by the statement that stored the lead).
    const [delivery] = forPage(withHook.id);
    expect(new Date(delivery.createdAt).getTime()).toBe(new Date(lead.created_at).getTime());
    expect(forPage(withoutHook.id)).toHaveLength(0);
    expect(forPage(freePage.id)).toHaveLength(0);
    // A repeat records nothing more.
    await submit(withHook.slug, { email: 'HOOKED@example.com', consent: true });
    await outboxDrained();
    expect((await deliveries()).filter((payload) => payload.pageId === withHook.id)).toHaveLength(1);
  });
});
