// `npm run bench:ops`: the operations figures, measured on this machine in one run (about 3 minutes).
//   scale:   public page and submit req/s with one gateway process, then two behind one port (Node cluster)
//   drain:   10,000 `email.file-delivery` jobs drained by 1, 2 and 4 notifications worker processes → jobs/s
//   e-mail:  against an SMTP server that waits 100 ms before its greeting (as many relays do): mails/s for a
//            backlog of 2,000 file e-mails, then leads submitted at 200/s → mails/s and lead-to-mail p50/p99
//   export:  CSV export of 1,000,000 leads through the gateway vs a plain PostgreSQL COPY of the same four
//            columns in the same minute → rows/s, ratio, and the gateway's RSS before and at its peak
// Everything runs on its own database and Redis key prefix, removed at the end. Not part of CI.
// Environment: OPS_BENCH_SECONDS (8: each load run), OPS_BENCH_CONNECTIONS (100), OPS_BENCH_PARTS
// (scale,drain,email,export), OPS_BENCH_EXPORT_ROWS (1000000), BENCH_LOAD (wrk when installed, else autocannon;
// see load.mjs).
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { SMTPServer } from 'smtp-server';
import testing from '@plink/testing';
import { formToken, json, waitForHealth } from './harness.mjs';
import { load, loadTool, loadToolNote } from './load.mjs';

const { createTestDatabase, deleteRedisPrefix, freePort, testRedisUrl, uniqueRedisPrefix } = testing;
const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const SECONDS = Number(process.env.OPS_BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.OPS_BENCH_CONNECTIONS ?? 100);
const PARTS = new Set((process.env.OPS_BENCH_PARTS ?? 'scale,drain,email,export').split(','));
const EXPORT_ROWS = Number(process.env.OPS_BENCH_EXPORT_ROWS ?? 1_000_000);
const DRAIN_JOBS = 10_000;
const DRAIN_WORKERS = [1, 2, 4];
const GREETING_DELAY_MS = 100;
const MAIL_BACKLOG = 2_000;
const LEAD_RATE = 200;
const LEAD_SECONDS = 10;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n) => Math.round(n).toLocaleString('en-US');
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const targets = [];
const target = (name, ok) => targets.push([name, ok]);

// --- processes ----------------------------------------------------------------------------------------------

/** A Plink process (gateway, cluster launcher or worker app) with the last lines of its output kept for errors. */
function startProcess(script, args, env, { ipc = false } = {}) {
  const output = [];
  const child = (ipc ? fork : spawn)(ipc ? script : NODE, ipc ? args : [script, ...args], {
    cwd: ROOT,
    env,
    execPath: NODE,
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d) => {
    output.push(String(d));
    if (output.length > 100) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return {
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** CPU seconds used so far by a process and its children's living processes (Linux /proc; 100 ticks a second). */
/** CPU seconds the whole machine has spent busy (every process, the kernel included), from /proc/stat. */
function machineBusySeconds() {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

function cpuSeconds(pid) {
  const own = (p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return 0;
    }
  };
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // no children file: count the process alone
  }
  return own(pid) + children.reduce((sum, child) => sum + own(child), 0);
}

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

// --- an SMTP server to deliver to -----------------------------------------------------------------------------

/**
 * A real SMTP server (smtp-server) that counts what it accepts and when each recipient's mail arrived;
 * `greetingDelayMs` makes every new connection wait before the server's greeting, as many relays do.
 */
async function startSmtpSink() {
  const sink = { greetingDelayMs: 0, received: 0, connections: 0, arrivals: new Map(), url: '' };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      sink.connections += 1;
      if (sink.greetingDelayMs > 0) setTimeout(callback, sink.greetingDelayMs);
      else callback();
    },
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const now = performance.now();
        sink.received += 1;
        for (const r of session.envelope.rcptTo) sink.arrivals.set(r.address.toLowerCase(), now);
        callback();
      });
    },
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  sink.url = `smtp://127.0.0.1:${server.server.address().port}`;
  sink.close = () => new Promise((r) => server.close(r));
  sink.reset = () => {
    sink.received = 0;
    sink.connections = 0;
    sink.arrivals.clear();
  };
  return sink;
}

async function until(what, test, ms) {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

// --- HTTP load -------------------------------------------------------------------------------------------------

const cannon = (opts) => load({ duration: SECONDS, connections: CONNECTIONS, ...opts });

/** A load run, with the CPU the gateway process(es), the load generator and the whole machine used, in cores. */
async function measured(opts, gatewayPid) {
  const wall = performance.now();
  const gatewayCpu = cpuSeconds(gatewayPid);
  const machineCpu = machineBusySeconds();
  const result = await cannon(opts);
  const seconds = (performance.now() - wall) / 1000;
  return {
    ...result,
    gatewayCores: (cpuSeconds(gatewayPid) - gatewayCpu) / seconds,
    loadCores: result.cpuSeconds / seconds,
    machineCores: (machineBusySeconds() - machineCpu) / seconds,
  };
}

/** Public page and submit req/s against `origin` (each path warmed up for 2 s first). */
async function pageAndSubmit(origin, label, gatewayPid) {
  const page = { url: `${origin}/bench-guide`, headers: { 'user-agent': 'Mozilla/5.0 (bench)' } };
  const submit = {
    url: `${origin}/api/page/bench-guide/submit`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"email":"${label}-[<id>]@bench.test","consent":true,"formToken":"${await formToken(origin, 'bench-guide')}"}`,
  };
  await cannon({ ...page, duration: 2 });
  const pageRun = await measured(page, gatewayPid);
  await cannon({ ...submit, duration: 2 });
  const submitRun = await measured(submit, gatewayPid);
  const summary = (r) => ({
    rps: r.rps,
    p99: r.p99,
    errors: r.errors,
    gatewayCores: r.gatewayCores,
    loadCores: r.loadCores,
    machineCores: r.machineCores,
  });
  return { page: summary(pageRun), submit: summary(submitRun) };
}

// --- the run ---------------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const database = await createTestDatabase();
  const redisUrl = testRedisUrl();
  const redisPrefix = uniqueRedisPrefix();
  const work = mkdtempSync(join(tmpdir(), 'plink-ops-bench-'));
  const sink = await startSmtpSink();
  const db = new pg.Pool({ connectionString: database.url, max: 4 });
  const emailQueue = new Queue('email', { connection: { url: redisUrl }, prefix: `${redisPrefix}bull` });
  const processes = [];
  const env = (extra) => ({
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    SESSION_SECRET: 'ops-bench-session-secret-0123456789abcdef0123456789',
    LEAD_RATE_LIMIT_PER_MINUTE: '0',
    LEAD_FLOOD_PER_HOUR: '0',
    LEAD_REFUSED_PER_HOUR: '0',
    // No DNS on the bench machine (every name is "no such domain").
    EMAIL_MX_CHECK: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    MAIL_OUTBOX_DIR: join(work, 'mail'),
    UPLOADS_DIR: join(work, 'uploads'),
    SMTP_URL: sink.url,
    ...extra,
  });
  const run = (script, args, extra, opts) => {
    const proc = startProcess(script, args, env(extra), opts);
    processes.push(proc);
    return proc;
  };
  /** `count` notifications worker processes, healthy. */
  async function notificationsWorkers(count) {
    const workers = [];
    for (let i = 0; i < count; i += 1) {
      const healthPort = await freePort();
      const proc = run(join(ROOT, 'apps/notifications/dist/main.js'), [], { HEALTH_PORT: String(healthPort), DATABASE_POOL_MAX: '5' });
      workers.push({ proc, url: `http://127.0.0.1:${healthPort}` });
    }
    await Promise.all(workers.map((w) => waitForHealth(w.url, w.proc.child, w.proc.output, 90_000)));
    return {
      stop: () => Promise.all(workers.map((w) => w.proc.stop())),
      cpuSeconds: () => workers.reduce((sum, w) => sum + cpuSeconds(w.proc.child.pid), 0),
    };
  }
  /** File-delivery jobs for `leads` of `page`, added as the outbox relay adds them (carrying what the e-mail shows, as capture records them). */
  async function addFileDeliveries(leads, page) {
    const recordedAt = new Date().toISOString();
    for (let i = 0; i < leads.length; i += 1_000) {
      await emailQueue.addBulk(
        leads.slice(i, i + 1_000).map(({ leadId, email }) => ({
          name: 'email.file-delivery',
          data: {
            payload: { v: 2, leadId, to: email, page: { id: page.id, title: page.title, fileUrl: page.fileUrl }, senderName: 'bench' },
            meta: { correlationId: `ops-bench-${leadId}`, recordedAt },
          },
          opts: { jobId: `ops-bench-${leadId}`, attempts: 3, removeOnComplete: 1_000, removeOnFail: 1_000 },
        })),
      );
    }
  }
  const insertLeads = async (pageId, prefix, count) =>
    (
      await db.query(
        `insert into leads.leads (page_id, email, email_lower, consent_at, created_at)
         select $1, $2 || g || '@bench.test', $2 || g || '@bench.test', now(), now() - make_interval(secs => g)
           from generate_series(1, $3::int) g returning id, email`,
        [pageId, prefix, count],
      )
    ).rows.map((r) => ({ leadId: Number(r.id), email: r.email }));

  try {
    // The gateway alone (production shape: no workers in it), and a Pro creator with a page that has a file.
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const gatewayEnv = { PORT: String(port), APP_ORIGIN: origin, PLINK_WORKERS: 'none' };
    const gateway = run(join(ROOT, 'apps/gateway/dist/main.js'), [], gatewayEnv);
    await waitForHealth(origin, gateway.child, gateway.output, 90_000);
    const who = { username: 'ops_bench', email: 'creator@bench.test', password: 'ops-bench-password' };
    const registered = await json('POST', `${origin}/api/register`, who);
    await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    const { cookie } = await json('POST', `${origin}/api/login`, { email: who.email, password: who.password });
    const newPage = async (slug) =>
      (
        await json(
          'POST',
          `${origin}/api/pages`,
          {
            slug,
            title: 'The Free Photography Cheat Sheet',
            subtext: '<p>Master exposure, composition and light with a one-page guide for every shoot.</p>',
            authorName: 'Ana Lopes',
            buttonText: 'Send me the guide',
            fileUrl: 'https://files.example.com/guide.pdf',
          },
          cookie,
        )
      ).body;
    const guide = await newPage('bench-guide');

    const cpu = cpus();
    console.log(
      `\nPlink operations benchmark — ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GB, ` +
        `load average ${loadavg()[0].toFixed(2)} at start; load generator (${loadTool}), PostgreSQL and Redis share these cores.\n`,
    );
    if (loadToolNote) console.log(`(${loadToolNote})\n`);

    if (PARTS.has('scale')) {
      const one = await pageAndSubmit(origin, 'one', gateway.child.pid);
      const clusterPort = await freePort();
      const clusterOrigin = `http://127.0.0.1:${clusterPort}`;
      const cluster = run(join(ROOT, 'apps/bench/src/gateway-cluster.mjs'), [join(ROOT, 'apps/gateway/dist/main.js'), '2'], { ...gatewayEnv, PORT: String(clusterPort), APP_ORIGIN: clusterOrigin }, { ipc: true });
      await new Promise((res, rej) => {
        cluster.child.once('message', res);
        cluster.child.once('exit', () => rej(new Error(`gateway cluster exited:\n${cluster.output.join('')}`)));
      });
      await waitForHealth(clusterOrigin, cluster.child, cluster.output, 90_000);
      const two = await pageAndSubmit(clusterOrigin, 'two', cluster.child.pid);
      await cluster.stop();
      const cores = (r) =>
        `gateway ${r.gatewayCores.toFixed(2)} + load generator ${r.loadCores.toFixed(2)} cores; machine ${r.machineCores.toFixed(2)} of ${cpu.length} busy`;
      const line = (what, a, b) =>
        `  ${what.padEnd(7)} 1 process   ${round(a.rps).padStart(7)} req/s  p99 ${String(a.p99).padStart(4)} ms  (${cores(a)})\n` +
        `  ${''.padEnd(7)} 2 processes ${round(b.rps).padStart(7)} req/s  p99 ${String(b.p99).padStart(4)} ms  (${cores(b)})   ×${(b.rps / a.rps).toFixed(2)}` +
        (a.errors + b.errors ? `   errors ${a.errors}/${b.errors}` : '');
      console.log(`Gateway processes behind one port (Node cluster), ${CONNECTIONS} connections, ${SECONDS} s per run`);
      console.log(line('page', one.page, two.page));
      console.log(line('submit', one.submit, two.submit));
      target('2 gateway processes: page ×≥ 1.6', two.page.rps / one.page.rps >= 1.6);
      target('2 gateway processes: submit ×≥ 1.6', two.submit.rps / one.submit.rps >= 1.6);
      // The submissions' file e-mail jobs are not part of what follows.
      await until('the outbox to empty', async () => (await db.query('select count(*)::int as n from platform.outbox')).rows[0].n === 0, 60_000);
      await emailQueue.obliterate({ force: true });
    }

    if (PARTS.has('drain')) {
      const ids = await insertLeads(guide.id, 'drain', DRAIN_JOBS);
      console.log(`\nQueue drain: ${round(DRAIN_JOBS)} email.file-delivery jobs (each carries its lead's address and the page, and sends over SMTP)`);
      const rates = [];
      for (const count of DRAIN_WORKERS) {
        const workers = await notificationsWorkers(count);
        sink.reset();
        const t0 = performance.now();
        const cpu0 = workers.cpuSeconds();
        await addFileDeliveries(ids, guide);
        await until(`${DRAIN_JOBS} e-mails`, () => sink.received >= DRAIN_JOBS, 180_000);
        const seconds = (performance.now() - t0) / 1000;
        const workerCores = (workers.cpuSeconds() - cpu0) / seconds;
        const failed = await emailQueue.getFailedCount();
        await workers.stop();
        await emailQueue.obliterate({ force: true });
        rates.push(DRAIN_JOBS / seconds);
        console.log(
          `  ${count} worker process${count > 1 ? 'es' : '  '}  ${seconds.toFixed(1).padStart(5)} s  ${round(DRAIN_JOBS / seconds).padStart(6)} jobs/s   ×${(DRAIN_JOBS / seconds / rates[0]).toFixed(2)}` +
            `   (workers used ${workerCores.toFixed(2)} cores)` +
            (failed ? `   ${failed} failed` : ''),
        );
      }
      target('2 notifications processes drain faster than 1', rates[1] > rates[0]);
    }

    if (PARTS.has('email')) {
      sink.greetingDelayMs = GREETING_DELAY_MS;
      const workers = await notificationsWorkers(1);
      console.log(`\nE-mail through one notifications process, SMTP server greeting after ${GREETING_DELAY_MS} ms`);

      // A backlog: how fast the pooled transport sends.
      const ids = await insertLeads(guide.id, 'backlog', MAIL_BACKLOG);
      sink.reset();
      let t0 = performance.now();
      await addFileDeliveries(ids, guide);
      await until(`${MAIL_BACKLOG} e-mails`, () => sink.received >= MAIL_BACKLOG, 180_000);
      const backlogRate = MAIL_BACKLOG / ((performance.now() - t0) / 1000);
      console.log(`  backlog of ${round(MAIL_BACKLOG)} file e-mails   ${round(backlogRate).padStart(5)} mails/s over ${sink.connections} SMTP connection(s)`);
      target(`e-mail backlog ≥ 200 mails/s (greeting after ${GREETING_DELAY_MS} ms)`, backlogRate >= 200);

      // Leads submitted at 200/s through the gateway: the time from each lead to its e-mail.
      const guideToken = await formToken(origin, 'bench-guide');
      sink.reset();
      const total = LEAD_RATE * LEAD_SECONDS;
      const sentAt = new Map();
      let sent = 0;
      let failures = 0;
      t0 = performance.now();
      await new Promise((done) => {
        const timer = setInterval(() => {
          const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * LEAD_RATE));
          for (; sent < due; sent += 1) {
            const email = `paced-${sent}@bench.test`;
            sentAt.set(email, performance.now());
            fetch(`${origin}/api/page/bench-guide/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, consent: true, formToken: guideToken }) })
              .then(async (r) => {
                await r.arrayBuffer();
                if (!r.ok) failures += 1;
              })
              .catch(() => (failures += 1));
          }
          if (sent >= total) {
            clearInterval(timer);
            done();
          }
        }, 2);
      });
      await until(`${total} paced e-mails`, () => sink.received >= total - failures, 120_000);
      const latencies = [...sentAt].map(([email, at]) => sink.arrivals.get(email) - at).filter((ms) => ms >= 0).sort((a, b) => a - b);
      const lastArrival = Math.max(...sink.arrivals.values());
      const pacedRate = sink.received / ((lastArrival - t0) / 1000);
      const p99 = percentile(latencies, 0.99);
      console.log(
        `  ${LEAD_RATE} leads/s for ${LEAD_SECONDS} s          ${round(pacedRate).padStart(5)} mails/s   lead to mail p50 ${round(percentile(latencies, 0.5))} ms, ` +
          `p99 ${round(p99)} ms, max ${round(latencies.at(-1))} ms   (${latencies.length} of ${total} mailed${failures ? `, ${failures} submissions failed` : ''})`,
      );
      target(`lead to mail p99 ≤ 1 s at ${LEAD_RATE} leads/s`, p99 <= 1_000 && latencies.length === total);
      await workers.stop();
      sink.greetingDelayMs = 0;
    }

    if (PARTS.has('export')) {
      const page = await newPage('bench-export');
      const t0 = performance.now();
      await db.query(
        `insert into leads.leads (page_id, email, email_lower, consent_at, created_at)
         select $1, 'row' || g || '@bench.test', 'row' || g || '@bench.test', case when g % 3 = 0 then null else now() end,
                now() - make_interval(secs => g)
           from generate_series(1, $2::int) g`,
        [page.id, EXPORT_ROWS],
      );
      await db.query('vacuum analyze leads.leads');
      console.log(`\nCSV export of ${round(EXPORT_ROWS)} leads (stored in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

      // Plain COPY of the same four columns, read by this process (the first run warms the cache).
      const plainCopy = async () => {
        const client = await db.connect();
        try {
          const start = performance.now();
          const stream = client.query(
            copyStreams.to(`copy (select email, created_at, consent_at, 'bench-export' as page_slug from leads.leads where page_id = ${Number(page.id)})
              to stdout with (format csv, header)`),
          );
          let bytes = 0;
          for await (const chunk of stream) bytes += chunk.length;
          return { seconds: (performance.now() - start) / 1000, rows: stream.rowCount, bytes };
        } finally {
          client.release();
        }
      };
      await plainCopy();
      const copy = await plainCopy();

      // The gateway's export over HTTP, with its resident memory sampled every 20 ms.
      const pid = gateway.child.pid;
      const rssBefore = rssMb(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 20);
      const start = performance.now();
      const res = await fetch(`${origin}/api/pages/${page.id}/export`, { headers: { cookie } });
      let lines = 0;
      let bytes = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      }
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, rssMb(pid));
      const rows = lines - 1;
      if (res.status !== 200 || rows !== EXPORT_ROWS) throw new Error(`export answered ${res.status} with ${rows} rows`);
      const ratio = rows / seconds / (copy.rows / copy.seconds);
      console.log(`  plain COPY (4 columns)   ${copy.seconds.toFixed(2).padStart(5)} s  ${round(copy.rows / copy.seconds).padStart(9)} rows/s  ${(copy.bytes / 2 ** 20).toFixed(0)} MB`);
      console.log(
        `  gateway export           ${seconds.toFixed(2).padStart(5)} s  ${round(rows / seconds).padStart(9)} rows/s  ${(bytes / 2 ** 20).toFixed(0)} MB   ×${ratio.toFixed(2)} of COPY`,
      );
      console.log(`  gateway RSS              ${round(rssBefore)} MB before, ${round(rssPeak)} MB at its peak (+${round(rssPeak - rssBefore)} MB)`);
      target('export ≥ 0.25× plain COPY rows/s', ratio >= 0.25);
      target('export gateway RSS growth ≤ 64 MB', rssPeak - rssBefore <= 64);
    }

    console.log('\nTargets');
    for (const [name, ok] of targets) console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${name}`);
    console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
  } finally {
    for (const proc of processes.reverse()) await proc.stop();
    await emailQueue.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    await sink.close().catch(() => undefined);
    await database.drop().catch(() => undefined);
    await deleteRedisPrefix(redisUrl, redisPrefix).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
