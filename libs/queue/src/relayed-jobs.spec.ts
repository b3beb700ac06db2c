import { JOBS, WEBHOOK_DELIVERIES_PER_JOB } from '@plink/contracts';
import { relayedJobs, type RelayedRow } from './relayed-jobs';

const at = new Date('2026-11-24T10:00:00.000Z');
const row = (id: string, jobName: string, payload: Record<string, unknown>, correlationId = `req-${id}`, queue = QUEUE_OF[jobName]): RelayedRow => ({
  id,
  queue,
  job_name: jobName,
  payload,
  correlation_id: correlationId,
  created_at: at,
});
const QUEUE_OF: Record<string, string> = { 'webhook.deliver': 'webhooks', 'email.file-delivery': 'email', 'email.verification': 'email' };
const delivery = (leadId: number) => ({
  v: 1,
  leadId,
  pageId: 9,
  email: `lead${leadId}@example.com`,
  createdAt: at.toISOString(),
  consentAt: null,
  page: { slug: 'guide', title: 'Guide', url: 'https://plink.example/guide' },
  pageVersion: 1,
  planVersion: 1,
});

describe('relayedJobs (what one outbox relay pass adds to the queues)', () => {
  it('adds each ordinary row as its own job, its id the row id, with its correlation id and recording time', () => {
    expect(relayedJobs([row('a', 'email.verification', { v: 1, sealedToken: 's' })])).toEqual([
      { name: 'email.verification', queue: 'email', jobId: 'a', envelope: { payload: { v: 1, sealedToken: 's' }, meta: { correlationId: 'req-a', recordedAt: at.toISOString() } } },
    ]);
  });

  it('hands the leads’ webhook deliveries and file e-mails over together, each with the correlation id of its own request', () => {
    const jobs = relayedJobs([
      row('a', 'webhook.deliver', delivery(1)),
      row('b', 'email.file-delivery', { v: 1, leadId: 1 }),
      row('c', 'webhook.deliver', delivery(2)),
      row('d', 'email.file-delivery', { v: 1, leadId: 2 }),
      row('e', 'email.verification', { v: 1, sealedToken: 's' }),
    ]);
    expect(jobs.map((j) => [j.name, j.jobId])).toEqual([
      ['webhook.deliver-many', 'a'],
      ['email.file-delivery-many', 'b'],
      ['email.verification', 'e'],
    ]);
    expect(jobs[1].envelope.payload).toEqual({
      v: 1,
      jobs: [
        { payload: { v: 1, leadId: 1 }, correlationId: 'req-b' },
        { payload: { v: 1, leadId: 2 }, correlationId: 'req-d' },
      ],
    });
    expect(jobs[0].envelope).toEqual({
      payload: {
        v: 1,
        jobs: [
          { payload: delivery(1), correlationId: 'req-a' },
          { payload: delivery(2), correlationId: 'req-c' },
        ],
      },
      meta: { correlationId: 'req-a', recordedAt: at.toISOString() },
    });
  });

  it('puts at most WEBHOOK_DELIVERIES_PER_JOB in one job, in the order recorded; a lone delivery is a job of one', () => {
    const count = WEBHOOK_DELIVERIES_PER_JOB * 2 + 1;
    const jobs = relayedJobs(Array.from({ length: count }, (_, i) => row(`r${i}`, 'webhook.deliver', delivery(i + 1))));
    const sizes = jobs.map((j) => (j.envelope.payload as unknown as { jobs: unknown[] }).jobs.length);
    expect(sizes).toEqual([WEBHOOK_DELIVERIES_PER_JOB, WEBHOOK_DELIVERIES_PER_JOB, 1]);
    expect(jobs.map((j) => j.jobId)).toEqual(['r0', `r${WEBHOOK_DELIVERIES_PER_JOB}`, `r${2 * WEBHOOK_DELIVERIES_PER_JOB}`]);
    const leadIds = jobs.flatMap((j) => (j.envelope.payload as unknown as { jobs: { payload: { leadId: number } }[] }).jobs.map((m) => m.payload.leadId));
    expect(leadIds).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  it("sends each row of an event to the subscriber's queue it names", () => {
    const change = { v: 1, pageId: 3, version: 1, formerSlug: null, page: null };
    const jobs = relayedJobs([row('a', 'page.changed', change, 'req', 'leads')]);
    expect(jobs.map((j) => [j.name, j.queue, j.jobId])).toEqual([['page.changed', 'leads', 'a']]);
  });

  it('gives a group a payload its job contract accepts', () => {
    const [group] = relayedJobs([row('a', 'webhook.deliver', delivery(1))]);
    expect(JOBS['webhook.deliver-many'].schema.safeParse(group.envelope.payload).success).toBe(true);
    const fileEmail = { v: 1, leadId: 1, to: 'visitor@example.com', page: { id: 9, title: 'Guide', fileUrl: 'https://files.example/g.pdf' }, senderName: 'Ana' };
    const [emails] = relayedJobs([row('b', 'email.file-delivery', fileEmail)]);
    expect(JOBS['email.file-delivery-many'].schema.safeParse(emails.envelope.payload).success).toBe(true);
  });
});
