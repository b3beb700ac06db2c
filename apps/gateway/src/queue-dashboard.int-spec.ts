import { Queue, Worker } from 'bullmq';
import { QueueName } from '@plink/contracts';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const PASSWORD = 'operator-password-for-tests';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The operator's queue dashboard: off without OPERATOR_PASSWORD, behind basic auth with it, and usable. */
describe('queue dashboard (/admin/queues)', () => {
  let off: TestGateway;
  let on: TestGateway;

  beforeAll(async () => {
    off = await startTestGateway();
    on = await startTestGateway({ OPERATOR_PASSWORD: PASSWORD });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  const get = (gateway: TestGateway, path: string, authorization?: string) =>
    fetch(`${gateway.origin}${path}`, { headers: authorization ? { authorization } : {} });

  it('does not exist without OPERATOR_PASSWORD (the path is the SPA\'s, which shows its not-found page)', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const answer = await get(off, path, basic('operator', PASSWORD));
      expect(answer.headers.get('www-authenticate')).toBeNull();
      const body = await answer.text();
      expect(body).toContain('<div id="root">');
      expect(body).not.toContain('Plink queues');
    }
  });

  it('asks for the operator password, and shows every queue with it', async () => {
    const anonymous = await get(on, '/admin/queues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Plink operator"/);
    expect((await get(on, '/admin/queues/api/queues')).status).toBe(401);

    const page = await get(on, '/admin/queues', basic('operator', PASSWORD));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Plink queues');
    const script = /src="(static\/js\/main\.[^"]+)"/.exec(html)![1];
    expect((await get(on, `/admin/queues/${script}`, basic('operator', PASSWORD))).status).toBe(200);

    const api = await get(on, '/admin/queues/api/queues', basic('anyone', PASSWORD));
    expect(api.status).toBe(200);
    const names = ((await api.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(Object.values(QueueName).sort());
  });

  it('retries failed jobs', async () => {
    const connection = { url: on.config.redisUrl };
    const prefix = `${on.config.redisPrefix}bull`;
    const queue = new Queue(QueueName.Leads, { connection, prefix });
    let runs = 0;
    const worker = new Worker(
      QueueName.Leads,
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('receiver down');
      },
      { connection, prefix },
    );
    try {
      await queue.add('leads.delete-for-page', { v: 1, pageId: 1 }, { attempts: 1 });
      await waitFor(async () => (await queue.getJobCounts('failed')).failed === 1);
      const listed = await get(on, `/admin/queues/api/queues?activeQueue=${QueueName.Leads}&status=failed`, basic('operator', PASSWORD));
      const leads = ((await listed.json()) as { queues: { name: string; jobs: { failedReason: string }[] }[] }).queues.find((q) => q.name === QueueName.Leads)!;
      expect(leads.jobs.map((j) => j.failedReason)).toEqual(['receiver down']);

      const retried = await fetch(`${on.origin}/admin/queues/api/queues/${QueueName.Leads}/retry/failed`, {
        method: 'PUT',
        headers: { authorization: basic('operator', PASSWORD) },
      });
      expect(retried.status).toBe(200);
      await waitFor(async () => (await queue.getJobCounts('completed')).completed === 1);
      expect(runs).toBe(2);
    } finally {
      await worker.close();
      await queue.close();
    }
  });

  it('refuses calls from another site with 403, before the password is even used', async () => {
    const retryAll = `${on.origin}/admin/queues/api/queues/${QueueName.Leads}/retry/failed`;
    const operator = { authorization: basic('operator', PASSWORD) };
    const refused = [
      await fetch(retryAll, { method: 'PUT', headers: { ...operator, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } }),
      await fetch(retryAll, { method: 'PUT', headers: { ...operator, 'sec-fetch-site': 'same-site' } }),
      await fetch(retryAll, { method: 'PUT', headers: { ...operator, origin: 'https://evil.example' } }),
      await fetch(`${on.origin}/admin/queues/api/queues`, { headers: { ...operator, origin: 'https://evil.example' } }),
      await fetch(`${on.origin}/admin/queues/api/queues`, { headers: { ...operator, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ message: 'This request came from another site and was refused.' });
    }
    // A link to the dashboard from elsewhere still opens it (a navigation carries no Origin).
    expect((await fetch(`${on.origin}/admin/queues`, { headers: { ...operator, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    // The dashboard's own calls pass.
    const own = await fetch(retryAll, { method: 'PUT', headers: { ...operator, 'sec-fetch-site': 'same-origin', origin: on.config.appOrigin } });
    expect(own.status).toBe(200);
  });

  it('answers errors as { message } without stack details, even in development', async () => {
    const before = process.env.NODE_ENV;
    // bull-board's own error body adds the stack when NODE_ENV is development.
    process.env.NODE_ENV = 'development';
    try {
      const bad = await fetch(`${on.origin}/admin/queues/api/queues/${QueueName.Leads}/retry/failed`, {
        method: 'PUT',
        headers: { authorization: basic('operator', PASSWORD), 'content-type': 'application/json' },
        body: '{"not json',
      });
      expect(bad.status).toBe(400);
      const text = await bad.text();
      expect(JSON.parse(text)).toEqual({ message: 'Malformed JSON in request body' });
      expect(text).not.toMatch(/node_modules|\bat [\w.<>]+ \(/);
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  it('answers 401 to wrong passwords, and stops answering an address after 10 of them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await get(on, '/admin/queues', basic('operator', `guess-${i}`))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // Even the right password waits now: guessing cannot go on from this address.
    expect((await get(on, '/admin/queues', basic('operator', PASSWORD))).status).toBe(429);
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
