import { MikroORM } from '@mikro-orm/postgresql';
import { Outbox, type JobQueue, type NewRowJobs } from '@plink/queue';
import { loadConfig } from '@plink/config';
import { openOrm, withOrmContext } from '@plink/data';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { LEADS_SCHEMA } from '../leads.schema';
import { DeletePageLeadsService } from '../use-cases/delete-page-leads.service';
import { LeadBatcher } from './lead-batcher';
import { LeadsRepository, type BatchLead } from './leads.repository';

/** The leads tables on a real PostgreSQL: uniqueness, counting and batched deletes (the export: leads-export.int-spec.ts). */
describe('LeadsRepository', () => {
  let env: TestEnvironment;
  let orm: MikroORM;
  let repo: LeadsRepository;
  let outbox: Outbox;
  let batcher: LeadBatcher;

  beforeAll(async () => {
    env = await createTestEnvironment({ DATABASE_POOL_MAX: '10' });
    orm = await openOrm(loadConfig(env.vars), [LEADS_SCHEMA]);
    // An outbox whose queues never answer: the jobs stay in platform.outbox, where these tests read them.
    outbox = new Outbox(orm, { ready: () => false, onReady: () => undefined } as unknown as JobQueue);
    repo = new LeadsRepository(orm.em, outbox);
    batcher = new LeadBatcher((leads) => repo.insertBatch(leads));
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  const inContext = <T>(fn: () => Promise<T>) => withOrmContext(orm, fn);
  afterEach(() => inContext(() => orm.em.execute('delete from platform.outbox')));
  const lead = (pageId: number, email: string, jobs: NewRowJobs | null = null): BatchLead => ({
    pageId,
    email,
    emailLower: email.toLowerCase(),
    planVersion: 0,
    consentAt: new Date(),
    jobs,
  });
  /** One submission, through the batcher as lead capture does it (concurrent calls share statements). */
  const insert = (pageId: number, email: string) => batcher.store(lead(pageId, email));
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => inContext(() => orm.em.execute(text, params));
  const FILE_EMAIL = { v: 1, to: 'visitor@example.com', page: { id: 30, title: 'Guide', fileUrl: 'https://files.example/guide.pdf' }, senderName: 'ada' };
  const fileJob = () => outbox.jobsForNewRow([{ name: 'email.file-delivery', payload: FILE_EMAIL, idField: 'leadId' }]);
  const bothJobs = (pageId: number) =>
    outbox.jobsForNewRow([
      { name: 'email.file-delivery', payload: FILE_EMAIL, idField: 'leadId' },
      {
        name: 'webhook.deliver',
        payload: { v: 1, pageId, email: 'visitor@example.com', consentAt: null, page: { slug: 'guide', title: 'Guide', url: 'https://plink.example/guide' }, pageVersion: 1, planVersion: 1 },
        idField: 'leadId',
        timeField: 'createdAt',
      },
    ]);

  it('stores one lead and one conversion per page and lower-cased address, even when racing', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => insert(1, i % 2 ? 'Race@Example.com' : 'race@example.COM')));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await insert(2, 'race@example.com')).toEqual(expect.any(Number)); // another page: its own lead
    const counts = await inContext(() => repo.conversionsFor([1, 2, 3]));
    expect([...counts]).toEqual([[1, 1], [2, 1], [3, 0]]);
    expect(await inContext(() => repo.findById(ids.find((id) => id !== null)!))).toEqual({ id: expect.any(Number), pageId: 1, email: expect.stringMatching(/^race@example\.com$/i) });
  });

  it('counts every one of many simultaneous distinct leads', async () => {
    await Promise.all(Array.from({ length: 500 }, (_, i) => insert(10, `crowd${i}@example.com`)));
    expect(await inContext(() => repo.conversions(10))).toBe(500);
    expect(await inContext(() => repo.recent(10, 5))).toHaveLength(5);
  });

  it('deletes a page’s leads in batches, idempotently', async () => {
    for (let i = 0; i < 25; i += 1) await insert(20, `batch${i}@example.com`);
    expect(await inContext(() => repo.lastId(20))).toBeGreaterThan(0);

    const remover = new DeletePageLeadsService(repo);
    await inContext(() => remover.execute(20));
    await inContext(() => remover.execute(20)); // a retried job changes nothing
    expect(await inContext(() => repo.conversions(20))).toBe(0);
    expect(await inContext(() => repo.lastId(20))).toBe(0);
    expect(await inContext(() => repo.conversions(10))).toBe(500); // other pages untouched
  });

  it('writes a batch in one statement: new leads inserted, counted and given their jobs; repeats only answered', async () => {
    await insert(30, 'Already@Example.com');
    const inserted = await repo.insertBatch(
      [
        lead(30, 'already@example.com', fileJob()), // stored before: no row, no count, no job
        lead(30, 'new.one@example.com', fileJob()),
        lead(31, 'new.one@example.com', bothJobs(31)), // the same address on another page is another lead
        lead(30, 'no.jobs@example.com', null),
      ],
    );
    expect(inserted.map((r) => `${r.pageId}:${r.emailLower}`).sort()).toEqual(['30:new.one@example.com', '30:no.jobs@example.com', '31:new.one@example.com']);
    expect(await inContext(() => repo.conversionsFor([30, 31]))).toEqual(new Map([[30, 3], [31, 1]]));

    const jobs = await sql<{ job_name: string; payload: { v: number; leadId: number; pageId?: number }; correlation_id: string }>(
      'select job_name, payload, correlation_id from platform.outbox order by job_name, (payload->>\'leadId\')::int',
    );
    const idOf = (pageId: number, email: string) => inserted.find((r) => r.pageId === pageId && r.emailLower === email)!.id;
    expect(jobs.map((j) => [j.job_name, { leadId: j.payload.leadId, pageId: j.payload.pageId }])).toEqual([
      ['email.file-delivery', { leadId: idOf(30, 'new.one@example.com'), pageId: undefined }],
      ['email.file-delivery', { leadId: idOf(31, 'new.one@example.com'), pageId: undefined }],
      ['webhook.deliver', { leadId: idOf(31, 'new.one@example.com'), pageId: 31 }],
    ]);
    expect(jobs.every((j) => j.correlation_id.length > 0)).toBe(true);
    const stored = await sql<{ email: string; consent_at: Date | null }>('select email, consent_at from leads.leads where page_id = 31');
    expect(stored).toEqual([{ email: 'new.one@example.com', consent_at: expect.anything() }]);
  });

  it('writes a page and address given twice to one statement once, with one job', async () => {
    const inserted = await repo.insertBatch([lead(35, 'Double@Example.com', fileJob()), lead(35, 'double@example.com', fileJob())]);
    expect(inserted).toEqual([{ id: expect.any(Number), pageId: 35, emailLower: 'double@example.com' }]);
    expect(await sql('select email from leads.leads where page_id = 35')).toEqual([{ email: 'Double@Example.com' }]);
    expect(await inContext(() => repo.conversions(35))).toBe(1);
    expect(await sql(`select (payload->>'leadId')::int as lead_id from platform.outbox`)).toEqual([{ lead_id: inserted[0].id }]);
  });

  it('shares statements between concurrent submissions: duplicates in a batch are one lead, one count, one job', async () => {
    await insert(40, 'stored@example.com');
    const statements: number[] = [];
    const counting = new LeadBatcher(async (leads) => {
      statements.push(leads.length);
      return repo.insertBatch(leads);
    });
    const submissions = [
      ...Array.from({ length: 10 }, (_, i) => lead(40, i % 2 ? 'Twice@Example.com' : 'twice@example.COM', fileJob())),
      lead(40, 'STORED@example.com', fileJob()),
      ...Array.from({ length: 100 }, (_, i) => lead(40, `fresh${i}@example.com`, fileJob())),
    ];
    const ids = await Promise.all(submissions.map((s) => counting.store(s)));
    expect(statements.length).toBeLessThan(submissions.length / 10); // batched, not one statement each
    expect(Math.max(...statements)).toBeLessThanOrEqual(200);
    expect(ids.slice(0, 10).filter((id) => id !== null)).toHaveLength(1); // the twice-sent address: one new lead
    expect(ids[10]).toBeNull(); // stored before
    expect(ids.slice(11).every((id) => typeof id === 'number')).toBe(true);
    expect(new Set(ids.filter((id) => id !== null)).size).toBe(101);

    expect(await inContext(() => repo.conversions(40))).toBe(102);
    const [{ n }] = await sql<{ n: number }>('select count(*)::int as n from leads.leads where page_id = 40');
    expect(n).toBe(102);
    const jobIds = (await sql<{ lead_id: number }>(`select (payload->>'leadId')::int as lead_id from platform.outbox`)).map((r) => r.lead_id);
    expect(jobIds.sort((a, b) => a - b)).toEqual(ids.filter((id): id is number => id !== null).sort((a, b) => a - b));
  });

  it('never deadlocks when concurrent batches share addresses in opposite orders', async () => {
    const emails = Array.from({ length: 300 }, (_, i) => `overlap${i}@example.com`);
    const rounds = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const order = i % 2 ? [...emails].reverse() : emails;
        return repo.insertBatch(order.map((e) => lead(50 + Math.floor(i / 3), e, fileJob())));
      }),
    );
    expect(rounds.flat()).toHaveLength(600); // each address once per page
    expect(await inContext(() => repo.conversionsFor([50, 51]))).toEqual(new Map([[50, 300], [51, 300]]));
    const [{ n }] = await sql<{ n: number }>('select count(*)::int as n from platform.outbox');
    expect(n).toBe(600);
  });
});
