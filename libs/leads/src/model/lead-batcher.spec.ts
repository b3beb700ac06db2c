import { LeadBatcher, type BatchWrite } from './lead-batcher';
import type { BatchLead, InsertedLead } from './leads.repository';

const lead = (pageId: number, email: string): BatchLead => ({ pageId, email, emailLower: email.toLowerCase(), consentAt: null, jobs: null, planVersion: 0 });

/** A fake table: a unique set of page + lower-cased address, and every statement it was sent. */
function fakeTable(fail?: (leads: BatchLead[]) => Error | undefined) {
  const stored = new Map<string, number>();
  const statements: BatchLead[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const write: BatchWrite = async (leads) => {
    statements.push(leads);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((r) => setTimeout(r, 5));
      const error = fail?.(leads);
      if (error) throw error;
      const inserted: InsertedLead[] = [];
      for (const l of leads) {
        const key = `${l.pageId}:${l.emailLower}`;
        if (stored.has(key)) continue;
        stored.set(key, stored.size + 1);
        inserted.push({ id: stored.get(key)!, pageId: l.pageId, emailLower: l.emailLower });
      }
      return inserted;
    } finally {
      inFlight -= 1;
    }
  };
  return { write, stored, statements, maxInFlight: () => maxInFlight };
}

describe('LeadBatcher (group commit)', () => {
  it('writes a lone submission at once, in a statement of its own', async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write);
    // "At once": the statement is sent on the next turn of the event loop (it only gathers what arrived in the
    // same turn), never after a waiting window: checked by order of events, which holds whatever the load,
    // unlike a stopwatch.
    const answer = batcher.store(lead(1, 'solo@example.com'));
    await new Promise((r) => setImmediate(r));
    expect(table.statements).toEqual([[lead(1, 'solo@example.com')]]);
    await expect(answer).resolves.toBe(1);
  });

  it("carries each lead's proof of consent into the statement: the first submission's for a repeated address", async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write);
    const evidence = (ip: string) => ({
      consentShown: true,
      consentVersion: 'f'.repeat(64),
      privacyUrl: 'https://plink.test/privacy',
      signupIp: ip,
      signupUserAgent: `UA ${ip}`,
    });
    const answers = [
      batcher.store({ ...lead(1, 'a@example.com'), evidence: evidence('192.0.2.1') }),
      batcher.store({ ...lead(1, 'A@example.com'), evidence: evidence('192.0.2.2') }),
      batcher.store({ ...lead(1, 'b@example.com'), evidence: evidence('192.0.2.3') }),
    ];
    await Promise.all(answers);
    expect(table.statements).toHaveLength(1);
    expect(table.statements[0].map((l) => l.evidence?.signupIp)).toEqual(['192.0.2.1', '192.0.2.3']);
    expect(table.statements[0][1].evidence).toEqual(evidence('192.0.2.3'));
  });

  it('puts what arrives meanwhile into shared statements, bounded in size and in number at once', async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write, { maxBatch: 50, maxInFlight: 2 });
    const first = batcher.store(lead(1, 'first@example.com'));
    await new Promise((r) => setImmediate(r)); // the first statement is now in flight
    const rest = Array.from({ length: 300 }, (_, i) => batcher.store(lead(1 + (i % 3), `v${i}@example.com`)));
    const ids = await Promise.all([first, ...rest]);
    expect(new Set(ids).size).toBe(301);
    expect(table.statements[0]).toHaveLength(1);
    expect(table.statements.length).toBeLessThanOrEqual(1 + 6 + 1);
    expect(Math.max(...table.statements.map((s) => s.length))).toBe(50);
    expect(table.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('writes the same page and address once per batch: one id, the other submissions answered as repeats', async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write);
    const answers = await Promise.all([
      batcher.store(lead(1, 'Same@Example.com')),
      batcher.store(lead(1, 'same@example.com')),
      batcher.store(lead(2, 'same@example.com')), // another page: another lead
      batcher.store(lead(1, 'SAME@EXAMPLE.COM')),
    ]);
    expect(answers).toEqual([1, null, 2, null]);
    expect(table.statements).toHaveLength(1);
    expect(table.statements[0].map((l) => `${l.pageId}:${l.email}`)).toEqual(['1:Same@Example.com', '2:same@example.com']);
  });

  it('answers an address stored earlier as a repeat, beside new leads of the same batch', async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write);
    await batcher.store(lead(1, 'old@example.com'));
    await expect(Promise.all([batcher.store(lead(1, 'OLD@example.com')), batcher.store(lead(1, 'new@example.com'))])).resolves.toEqual([null, 2]);
  });

  it('retries the leads of a failed batch one by one: a bad row fails only its own submissions', async () => {
    const bad = new Error('row refused');
    const table = fakeTable((leads) => (leads.some((l) => l.email.startsWith('bad')) ? bad : undefined));
    const batcher = new LeadBatcher(table.write);
    const answers = await Promise.allSettled([
      batcher.store(lead(1, 'a@example.com')),
      batcher.store(lead(1, 'bad@example.com')),
      batcher.store(lead(1, 'BAD@example.com')),
      batcher.store(lead(1, 'b@example.com')),
    ]);
    expect(answers).toEqual([
      { status: 'fulfilled', value: expect.any(Number) },
      { status: 'rejected', reason: bad },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: expect.any(Number) },
    ]);
    expect([...table.stored.keys()].sort()).toEqual(['1:a@example.com', '1:b@example.com']);
  });

  it('fails every submission of a batch the database refuses altogether (never a silent drop), and goes on', async () => {
    let down = true;
    const table = fakeTable(() => (down ? new Error('database away') : undefined));
    const batcher = new LeadBatcher(table.write);
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => batcher.store(lead(1, `down${i}@example.com`))));
    expect(answers.every((a) => a.status === 'rejected')).toBe(true);
    down = false;
    await expect(batcher.store(lead(1, 'down0@example.com'))).resolves.toBe(1);
    await batcher.drained();
  });

  it('writes a batch again when its connection broke after the commit: the stored leads are successes', async () => {
    // The statement committed, then the connection dropped before its answer came back (a restart).
    const table = fakeTable();
    let broken = 1;
    const write: BatchWrite = async (leads) => {
      const inserted = await table.write(leads);
      if (broken-- > 0) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return inserted;
    };
    const batcher = new LeadBatcher(write);
    await expect(batcher.store(lead(1, 'lost-answer@example.com'))).resolves.toBeNull();
    const two = await Promise.allSettled([batcher.store(lead(1, 'x@example.com')), batcher.store(lead(1, 'y@example.com'))]);
    expect(two.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(table.stored.size).toBe(3);
  });

  it('fails a whole batch at once while the database is unreachable, without trying lead by lead', async () => {
    const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const table = fakeTable(() => away);
    const batcher = new LeadBatcher(table.write);
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => batcher.store(lead(1, `away${i}@example.com`))));
    expect(answers).toEqual(Array(5).fill({ status: 'rejected', reason: away }));
    // The batch, and the batch once more on a fresh connection: no statement per lead.
    expect(table.statements.map((s) => s.length)).toEqual([5, 5]);
  });

  it('lets shutdown wait until the submissions it took are written', async () => {
    const table = fakeTable();
    const batcher = new LeadBatcher(table.write);
    const pending = Array.from({ length: 20 }, (_, i) => batcher.store(lead(1, `late${i}@example.com`)));
    await batcher.beforeApplicationShutdown();
    expect(table.stored.size).toBe(20);
    await Promise.all(pending);
  });
});
