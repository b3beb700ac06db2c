import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { SmtpCatcher, createTestEnvironment, freePort, type TestEnvironment } from '@plink/testing';
import { visitorFormToken } from './testing/form-tokens';
import { TestBrowser } from './testing/http-client';

const ROOT = join(__dirname, '../../..');
const RATE = 40; // submissions a second, each a new address, each with a file e-mail
const SLUG = 'drain-page';

interface Proc {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

interface Outcome {
  email: string;
  status: number | 'refused';
}

/**
 * Deploys under load, as an orchestrator does them: a gateway gets SIGTERM while visitors keep submitting and a
 * new one takes over; an e-mail worker gets SIGTERM in the middle of its jobs, and another one SIGKILL.
 * Every answered submission must be a stored lead, no answer may be a 5xx (a refused connection while no
 * gateway listens is what a client sees), every file e-mail must arrive — exactly once across the SIGTERM, at
 * least once across the SIGKILL (a job cut off after its e-mail left is run again when its lock expires).
 *
 * @run-alone: it stops apps under a load it makes itself and counts what each submission got.
 */
describe('draining on SIGTERM, and SIGKILL', () => {
  let env: TestEnvironment;
  let smtp: SmtpCatcher;
  let db: Client;
  const procs: Proc[] = [];

  function start(app: string, vars: Record<string, string>): Proc {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env.vars, ...vars };
    delete childEnv.JEST_WORKER_ID;
    const child = spawn(process.execPath, [join(ROOT, `apps/${app}/dist/main.js`)], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout!.on('data', (d) => output.push(String(d)));
    child.stderr!.on('data', (d) => output.push(String(d)));
    const proc = { child, output, exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))) };
    procs.push(proc);
    return proc;
  }

  async function ready(url: string, proc: Proc): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if ((await status(url)) === 200) return;
      await sleep(100);
    }
    throw new Error(`${url} did not become ready\n${proc.output.join('').slice(-3000)}`);
  }

  async function startGateway(): Promise<{ proc: Proc; origin: string }> {
    const port = await freePort();
    const proc = start('gateway', { PORT: String(port), HOST: '127.0.0.1', PLINK_WORKERS: 'none' });
    const origin = `http://127.0.0.1:${port}`;
    await ready(`${origin}/health/ready`, proc);
    return { proc, origin };
  }

  async function startMailer(): Promise<{ proc: Proc; health: string }> {
    const port = await freePort();
    const proc = start('notifications', { HEALTH_PORT: String(port) });
    const health = `http://127.0.0.1:${port}/health/ready`;
    await ready(health, proc);
    return { proc, health };
  }

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    env = await createTestEnvironment({
      SMTP_URL: smtp.url,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      LEAD_RATE_LIMIT_PER_MINUTE: '0', LEAD_FLOOD_PER_HOUR: '0', LEAD_REFUSED_PER_HOUR: '0',
      // On in production, but this machine's DNS answers "no such domain" for every name.
      EMAIL_MX_CHECK: 'false',
      SHUTDOWN_GRACE_MS: '15000',
    });
    db = new Client({ connectionString: env.database.url });
    await db.connect();
  });

  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    await db?.end();
    await env?.cleanup();
    await smtp?.stop();
  });

  /** Sends RATE submissions a second to whatever `target()` names, until `stop` resolves. */
  async function load(target: () => string, stop: Promise<void>, tag: string): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    // The page's form token, as a visitor who loaded it a few seconds ago sends it (good for 2 h, on any gateway).
    const formToken = await visitorFormToken(target(), `/${SLUG}`);
    const inFlight = new Set<Promise<void>>();
    let done = false;
    void stop.then(() => (done = true));
    const started = Date.now();
    let n = 0;
    while (!done) {
      while (n < ((Date.now() - started) / 1000) * RATE) {
        const email = `${tag}${n++}@example.com`;
        const p = fetch(`${target()}/api/page/${SLUG}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, consent: true, formToken }),
        }).then(
          async (r) => {
            await r.arrayBuffer();
            outcomes.push({ email, status: r.status });
          },
          () => {
            outcomes.push({ email, status: 'refused' });
          },
        );
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }
      await sleep(10);
    }
    await Promise.all(inFlight);
    return outcomes;
  }

  async function storedLeads(emails: string[]): Promise<Set<string>> {
    const rows = await db.query<{ email: string }>('select email from leads.leads where email = any($1)', [emails]);
    return new Set(rows.rows.map((r) => r.email));
  }

  async function allMailed(emails: string[], ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const missing = () => emails.filter((e) => smtp.mailsTo(e).length === 0);
    while (missing().length > 0 && Date.now() < deadline) await sleep(200);
    expect({ missing: missing().length }).toEqual({ missing: 0 });
  }

  it('hands over from a stopping gateway and e-mail worker without losing or doubling anything', async () => {
    const gateway = await startGateway();
    let mailer = await startMailer();
    const creator = new TestBrowser(gateway.origin);
    const owner = await creator.post('/api/register', { username: 'drain_owner', email: 'drain-owner@example.com', password: 'owner-secret' });
    expect(owner.status).toBe(201);
    await db.query('update identity.users set is_verified = true where id = $1', [owner.body.id]);
    expect((await creator.post('/api/pages', { slug: SLUG, title: 'Drain', fileUrl: 'https://files.example/guide.pdf' })).status).toBe(201);
    // A relay that takes 100 ms a message: the e-mail worker always has jobs under way.
    smtp.delayMs = 100;

    // --- 1. a rolling update of the gateway: the new one is ready, the old one gets SIGTERM ------------------
    let current = gateway.origin;
    let finishLoad!: () => void;
    const loadDone = new Promise<void>((r) => (finishLoad = r));
    const outcomes = load(() => current, loadDone, 'a');
    await sleep(2_000);
    const next = await startGateway();
    const old = gateway;
    const sigtermAt = Date.now();
    old.proc.child.kill('SIGTERM');
    // The load balancer: sends to the old one until its readiness fails, then to the new one.
    while ((await status(`${old.origin}/health/ready`)) === 200) await sleep(50);
    const notReadyMs = Date.now() - sigtermAt;
    current = next.origin;
    const oldExit = await old.proc.exited;
    const oldStopMs = Date.now() - sigtermAt;

    // --- 2. the e-mail worker gets SIGTERM in the middle of its jobs; a new one starts -------------------------
    await sleep(1_000);
    const before = mailer;
    before.proc.child.kill('SIGTERM');
    mailer = await startMailer();
    const workerExit = await before.proc.exited;
    await sleep(1_500);
    finishLoad();
    const first = await outcomes;

    const answered = first.filter((o) => o.status === 200).map((o) => o.email);
    console.log(
      `gateway SIGTERM: not ready after ${notReadyMs} ms, exited ${oldExit} after ${oldStopMs} ms; ` +
        `${first.length} submissions: ${answered.length} answered 200, ${first.filter((o) => o.status === 'refused').length} refused connections`,
    );
    expect(oldExit).toBe(0);
    expect(workerExit).toBe(0);
    expect(first.filter((o) => typeof o.status === 'number' && o.status >= 500)).toEqual([]);
    expect(first.filter((o) => o.status !== 200 && o.status !== 'refused')).toEqual([]);
    expect(answered.length).toBeGreaterThan(RATE * 3);
    expect((await storedLeads(answered)).size).toBe(answered.length);
    await allMailed(answered, 60_000);
    // Exactly once: the stopping worker finished what it had started, the new one took the rest.
    const doubled = answered.filter((e) => smtp.mailsTo(e).length > 1);
    expect(doubled).toEqual([]);
    expect(before.proc.output.join('')).toContain('notifications stopped');

    // --- 3. SIGKILL in the middle of its jobs: nothing is lost (at least once) ------------------------------
    let finishSecond!: () => void;
    const secondDone = new Promise<void>((r) => (finishSecond = r));
    const second = load(() => current, secondDone, 'b');
    await sleep(1_500);
    mailer.proc.child.kill('SIGKILL');
    await mailer.proc.exited;
    await startMailer();
    await sleep(1_000);
    finishSecond();
    const killed = (await second).filter((o) => o.status === 200).map((o) => o.email);
    expect((await storedLeads(killed)).size).toBe(killed.length);
    // The killed worker's jobs come back once their locks expire (BullMQ's stalled-job check, ~30 s).
    await allMailed(killed, 90_000);
    const twice = killed.filter((e) => smtp.mailsTo(e).length > 1).length;
    console.log(`worker SIGKILL: ${killed.length} leads, every one e-mailed; ${twice} e-mailed twice (cut off after sending)`);
  }, 180_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function status(url: string): Promise<number | 'refused'> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
    () => 'refused' as const,
  );
}
