// `npm run bench`: Plink's two hot paths under load, each beside a baseline measured in the same run
// on the same machine, printed as ratios (absolute numbers drift ±30 % between runs on shared machines).
//   page:   GET /{slug} (server-rendered landing page)  vs  bare node:http serving the same bytes; then both again
//           as a browser asks (Accept-Encoding with br), each answering the same brotli bytes
//   submit: POST /api/page/{slug}/submit (unique e-mails) vs  raw pg INSERT … ON CONFLICT DO NOTHING loop
// Each at 50 and 200 connections, each side warmed up for 2 s first. Targets: page ≥ 0.6× bare node, submit ≥ 0.8×
// raw insert, page p99 ≤ 25 ms at 200 connections.
//   webhook: the submit run again on a Pro page with a webhook to a local receiver, the notifications service
//            delivering in a process of its own: deliveries per second, lead stored → webhook received p50/p99,
//            and the same at rest (20 leads a second). Targets: p50 ≤ 250 ms at rest, every lead
//            delivered once, submissions ≥ 0.85× (one hook subscription: 0.9×) the plain submit run, which is
//            measured right before and right after each webhook run (their mean). Then one creator's receiver that
//            takes connections and never answers, flooded with 200 leads, while another creator's page gets
//            4 leads a second: that page's lead → webhook p50/p99 (target: p99 ≤ 1 s).
// After the submit runs it checks the work was really done: every success is a stored lead, counted once,
// whose file e-mail job reached its queue (a mismatch fails the run); after the webhook runs, that every
// lead of the page reached the receiver exactly once.
// The webhook part runs twice: the notifications process at normal priority, then at BENCH_WEBHOOK_NICENESS (19; 0
// skips it) as WORKER_NICENESS sets it for worker apps sharing a host's cores with gateways.
// Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (50,200), BENCH_PARTS (page,submit,webhook), BENCH_WORKERS (none),
// BENCH_PROFILE (a folder for the gateway's and the notifications process's CPU profiles; none), BENCH_LOAD (wrk when
// installed, else autocannon; see load.mjs); WEBHOOK_CONCURRENCY, WEBHOOK_YIELD_PRESSURE and WEBHOOK_YIELD_RATE are
// passed to the webhook part's notifications process.
import { fork, spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import testing from '@plink/testing';
import { formToken, json, waitForHealth } from './harness.mjs';
import { load, loadTool, loadToolNote } from './load.mjs';

const { createTestDatabase, deleteRedisPrefix, freePort, testRedisUrl, uniqueRedisPrefix } = testing;
const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '50,200').split(',').map(Number);
// BENCH_PARTS=submit (or page) measures only that path (and its baseline), to iterate faster.
const PARTS = new Set((process.env.BENCH_PARTS ?? 'page,submit,webhook').split(','));
// Production shape: the gateway alone, its jobs queued for workers that run elsewhere (BENCH_WORKERS=all
// runs every service's processors in the measured process too, as `npm start` does).
const WORKERS = process.env.BENCH_WORKERS ?? 'none';
// The webhook part runs again with the notifications process at this niceness (WORKER_NICENESS; 0: not again).
const WEBHOOK_NICENESS = Number(process.env.BENCH_WEBHOOK_NICENESS ?? 19);
/** Settings of the webhook part's notifications process that a run may change (e.g. WEBHOOK_YIELD_PRESSURE=0: no pacing). */
const PASSED_TO_NOTIFICATIONS = ['WEBHOOK_CONCURRENCY', 'WEBHOOK_YIELD_PRESSURE', 'WEBHOOK_YIELD_RATE'];
/** Seconds each side of a page comparison is loaded before it is measured, per connection count. */
const PAGE_WARM_UP_SECONDS = 2;

const cannon = (opts) => load({ duration: DURATION, ...opts });

const summary = (r) => ({ rps: Math.round(r.rps), p50: r.p50, p99: r.p99, errors: r.errors });

/** The raw insert baseline: the same unique rule as leads, through a pg pool of 10, `connections` in flight. */
async function rawInsertLoop(databaseUrl, connections, seconds = DURATION) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`create table if not exists bench_raw (id bigserial primary key, page_id int not null, email text not null,
    email_lower text not null, created_at timestamptz not null default now())`);
  await pool.query('create unique index if not exists bench_raw_key on bench_raw (page_id, email_lower)');
  const latencies = [];
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const i = n++;
        const started = performance.now();
        await pool.query(
          'insert into bench_raw (page_id, email, email_lower) values ($1, $2, lower($2)) on conflict (page_id, email_lower) do nothing',
          [1, `Raw${i}-${connections}-${seconds}@bench.test`],
        );
        latencies.push(performance.now() - started);
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { rps: Math.round(latencies.length / seconds), p50: at(0.5), p99: at(0.99), errors: 0 };
}

/**
 * A receiver that takes connections and never answers (a creator's broken or hostile automation tool):
 * `requests` counts the webhook attempts it got.
 */
async function startMuteReceiver() {
  const sockets = new Set();
  const mute = { requests: 0 };
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => (mute.requests += chunk.toString('latin1').split('POST /').length - 1));
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  mute.url = `http://127.0.0.1:${server.address().port}/hook`;
  mute.close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return mute;
}

/**
 * A local automation tool (webhook-receiver.mjs), in a process of its own at idle priority where the OS has
 * one: `received` holds the webhooks it noted, brought up to date by `sync()`.
 */
async function startReceiver() {
  const script = join(ROOT, 'apps/bench/src/webhook-receiver.mjs');
  const node = join(ROOT, 'node_modules/.bin/node');
  const idle = process.platform === 'linux' && existsSync('/usr/bin/chrt');
  const child = spawn(idle ? '/usr/bin/chrt' : node, [...(idle ? ['--idle', '0', node] : []), script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const received = [];
  let waiting = [];
  child.on('message', (message) => {
    if (message.type !== 'records') return;
    for (const record of message.records) received.push(record);
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => (message.type === 'listening' ? resolve(message.port) : reject(new Error('receiver did not start'))));
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
  });
  return {
    received,
    pid: child.pid,
    idle,
    url: `http://127.0.0.1:${port}/hook`,
    sync: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.send({ type: 'sync' });
      }),
    close: () => child.kill(),
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return NaN;
  }
}

/**
 * What a run costs, not only how fast it goes (the machine is shared): CPU seconds of the given processes and of
 * the PostgreSQL backends serving the bench's database, between `start()` and `stop()`.
 */
function cpuMeter(databaseUrl, pids) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const connected = client.connect();
  const backends = async () =>
    (await client.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  const sample = async () => {
    const pgPids = await backends();
    return { procs: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)])), pg: new Map(pgPids.map((pid) => [pid, cpuSeconds(pid)])) };
  };
  let first;
  return {
    start: async () => {
      await connected;
      first = await sample();
    },
    /** CPU seconds per process name, and `postgres` for the database's backends (those still connected at the end). */
    stop: async () => {
      const last = await sample();
      await client.end();
      const used = Object.fromEntries(Object.keys(pids).map((name) => [name, last.procs[name] - first.procs[name]]));
      let postgres = 0;
      for (const [pid, seconds] of last.pg) postgres += seconds - (first.pg.get(pid) ?? 0);
      return { ...used, postgres };
    },
  };
}

/** The Redis server's process id (it runs on this machine in the bench), for its CPU. */
async function redisPid() {
  const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  } finally {
    redis.disconnect();
  }
}

/** CPU milliseconds per unit of work, each process's. */
const perUnit = (cpu, units) => Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [name, units ? (seconds * 1000) / units : NaN]));
const ms = (value) => (Number.isFinite(value) ? value.toFixed(2) : '?');

/** SIGTERM, then the exit (at once when it already exited). */
async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
}

/** What a browser sends (Chromium's Accept-Encoding). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** The page's bytes as the gateway sends them to a browser (brotli), undecoded (fetch would decode them). */
function rawBrotliPage(url) {
  return new Promise((resolvePage, reject) => {
    httpGet(url, { headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        res.headers['content-encoding'] === 'br' ? resolvePage(Buffer.concat(chunks)) : reject(new Error(`the page came as ${res.headers['content-encoding'] ?? 'plain bytes'}, not brotli`)),
      );
    }).on('error', reject);
  });
}

const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : NaN;
};

async function main() {
  const database = await createTestDatabase();
  const redisPrefix = uniqueRedisPrefix();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const work = mkdtempSync(join(tmpdir(), 'plink-bench-'));
  const output = [];
  // BENCH_PROFILE=<dir>: the gateway (and the webhook part's notifications process) each write a V8 CPU profile
  // there when they stop (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE)}`] : [];
  const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: origin,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: redisPrefix,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      PLINK_WORKERS: WORKERS,
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
      LEAD_FLOOD_PER_HOUR: '0',
      LEAD_REFUSED_PER_HOUR: '0',
      // No DNS on the bench machine (every name is "no such domain"); answers are cached per domain anyway.
      EMAIL_MX_CHECK: 'false',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      MAIL_OUTBOX_DIR: join(work, 'mail'),
      UPLOADS_DIR: join(work, 'uploads'),
      // The webhook part's receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const redisServer = await redisPid();
  const gateway = spawn(join(ROOT, 'node_modules/.bin/node'), [...profile, join(ROOT, 'apps/gateway/dist/main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The webhook part: the notifications service in a process of its own, as deployed (it sends the webhooks).
  const workers = [];
  const receivers = [];
  const keep = (d) => {
    output.push(String(d));
    if (output.length > 200) output.shift();
  };
  gateway.stdout.on('data', keep);
  gateway.stderr.on('data', keep);
  let baseline;
  try {
    await waitForHealth(origin, gateway, output);

    // A creator with one typical page.
    const who = { username: 'bench_creator', email: 'creator@bench.test', password: 'bench-password' };
    const registered = await json('POST', `${origin}/api/register`, who);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
    // The leads service's copy of the plan (billing's plan.changed), which decides whether a lead goes to webhooks.
    await db.query('insert into leads.owner_plans (owner_id, is_pro, version) values ($1, true, 1) on conflict do nothing', [registered.body.id]);
    await db.end();
    const { cookie } = await json('POST', `${origin}/api/login`, { email: who.email, password: who.password });
    const guide = await json(
      'POST',
      `${origin}/api/pages`,
      {
        slug: 'bench-guide',
        title: 'The Free Photography Cheat Sheet',
        subtext: '<p>Master exposure, composition and light with a one-page guide for every shoot.</p><ul><li>Exposure triangle</li><li>Rule of thirds</li><li>Golden hour</li></ul>',
        authorName: 'Ana Lopes',
        buttonText: 'Send me the guide',
        fileUrl: 'https://files.example.com/guide.pdf',
      },
      cookie,
    );
    const page = await fetch(`${origin}/bench-guide`);
    const bytes = Buffer.from(await page.arrayBuffer());
    if (page.status !== 200) throw new Error(`GET /bench-guide answered ${page.status}`);
    const pageFile = join(work, 'page.html');
    writeFileSync(pageFile, bytes);

    // The page as a browser gets it (brotli): the baseline answers the same compressed bytes.
    const compressed = await rawBrotliPage(`${origin}/bench-guide`);
    const brotliFile = join(work, 'page.html.br');
    writeFileSync(brotliFile, compressed);
    baseline = fork(join(ROOT, 'apps/bench/src/baseline-server.mjs'), [pageFile, brotliFile], { stdio: 'ignore' });
    const baselinePort = await new Promise((res) => baseline.once('message', (m) => res(m.port)));

    // File e-mail jobs in the queue (nothing consumes them: the gateway runs without workers by default).
    const emailJobs = async () => {
      const queue = new Queue('email', { connection: { url: testRedisUrl() }, prefix: `${redisPrefix}bull` });
      try {
        // The file e-mails of one relay pass travel in one `email.file-delivery-many` job: each of them counts.
        const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
        return jobs.reduce((n, job) => n + (!job ? 0 : job.name === 'email.file-delivery-many' ? job.data.payload.jobs.length : 1), 0);
      } finally {
        await queue.close();
      }
    };
    const outboxEmpty = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const waiting = (await client.query('select count(*)::int as n from platform.outbox')).rows[0].n;
          if (waiting === 0 || Date.now() > deadline) return waiting;
          await new Promise((r) => setTimeout(r, 250));
        }
      } finally {
        await client.end();
      }
    };

    // The outbox relay must keep up with the leads, not leave a backlog to drain after the run: the most
    // jobs waiting in the outbox during a run, sampled every 250 ms.
    const watchOutbox = () => {
      const client = new pg.Client({ connectionString: database.url });
      let max = 0;
      let stopped = false;
      const done = (async () => {
        await client.connect();
        while (!stopped) {
          max = Math.max(max, (await client.query('select count(*)::int as n from platform.outbox')).rows[0].n);
          await new Promise((r) => setTimeout(r, 250));
        }
        await client.end();
      })();
      return { stop: async () => ((stopped = true), await done, max) };
    };

    // Every submission carries the page's form token, read from the page as a browser does.
    const guideToken = PARTS.has('submit') ? await formToken(origin, 'bench-guide') : '';
    const submitRun = (connections, duration = DURATION) =>
      cannon({
        url: `${origin}/api/page/bench-guide/submit`,
        connections,
        duration,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"email":"visitor-[<id>]@bench.test","consent":true,"formToken":"${guideToken}"}`,
      });
    /** A plain submit run, its outbox watched as the webhook runs' are (the watch's queries cost the database too). */
    const watchedSubmitRun = async (connections) => {
      const backlog = watchOutbox();
      const result = summary(await submitRun(connections));
      return { ...result, outboxMax: await backlog.stop() };
    };
    await outboxEmpty();
    const jobsBefore = await emailJobs(); // the creator's verification e-mail
    let submitted = 0;
    if (PARTS.has('submit')) {
      // Both sides of the submit comparison warm up (JIT, pools) for 2 s before they are measured.
      await rawInsertLoop(database.url, 50, 2);
      submitted += (await submitRun(50, 2)).ok;
    }

    const rows = [];
    for (const connections of CONNECTIONS) {
      const row = { connections };
      if (PARTS.has('page')) {
        const bare = { url: `http://127.0.0.1:${baselinePort}/`, connections };
        const plink = { url: `${origin}/bench-guide`, connections, headers: { 'user-agent': 'Mozilla/5.0 (bench)' } };
        // As a browser asks (every browser accepts brotli): the page's compressed bytes, on both sides.
        const asBrowser = { 'user-agent': 'Mozilla/5.0 (bench)', 'accept-encoding': BROWSER_ACCEPT_ENCODING };
        // Each side warms up at this many connections first, as the submit runs do: the first seconds after
        // `connections` new sockets open at once (and, in a fresh process, before the JIT has compiled the path)
        // measured the start, not the serving, on both sides alike (docs/performance.md).
        for (const warm of [bare, plink, { ...bare, headers: asBrowser }, { ...plink, headers: asBrowser }]) await cannon({ ...warm, duration: PAGE_WARM_UP_SECONDS });
        row.bare = summary(await cannon(bare));
        row.plinkPage = summary(await cannon(plink));
        row.bareBr = summary(await cannon({ ...bare, headers: asBrowser }));
        row.plinkPageBr = summary(await cannon({ ...plink, headers: asBrowser }));
      }
      if (PARTS.has('submit')) {
        row.raw = await rawInsertLoop(database.url, connections);
        const backlog = watchOutbox();
        const meter = cpuMeter(database.url, { gateway: gateway.pid, redis: redisServer });
        await meter.start();
        const result = await submitRun(connections);
        const cpu = await meter.stop();
        submitted += result.ok;
        row.submit = { ...summary(result), outboxMax: await backlog.stop(), cpu: perUnit(cpu, result.ok) };
      }
      rows.push(row);
    }

    // Checked before the webhook part, whose notifications process would send (and trim) the e-mail jobs.
    let submitReport;
    if (PARTS.has('submit')) {
      // Every success answered must be a stored lead (the addresses are unique), counted once, and each
      // lead's file e-mail job must have left the outbox for its queue. A run's end cuts off the requests in
      // flight (up to one per connection): those may be stored without an answer counted.
      await new Promise((r) => setTimeout(r, 1_000));
      const check = new pg.Client({ connectionString: database.url });
      await check.connect();
      const { stored, counted } = (
        await check.query(
          `select (select count(*)::int from leads.leads where page_id = $1) as stored,
            (select coalesce(sum(conversions), 0)::int from leads.page_counters where page_id = $1) as counted`,
          [guide.body.id],
        )
      ).rows[0];
      await check.end();
      const waiting = await outboxEmpty();
      // With workers in the gateway the e-mails are sent and completed jobs trimmed: the queue cannot be counted.
      const queued = WORKERS === 'none' ? (await emailJobs()) - jobsBefore : undefined;
      const allOk = rows.every((r) => !r.submit?.errors);
      const cutOff = CONNECTIONS.reduce((a, b) => a + b, 50);
      submitReport = {
        text:
          `\n${submitted} submissions answered 200 (${allOk ? 'every answer a success' : 'NOT every answer a success'}); ` +
          `${stored} leads stored, ${counted} conversions counted, ${queued ?? 'uncounted'} file e-mails queued, ${waiting} still in the outbox.`,
        mismatch: stored < submitted || stored > submitted + cutOff || counted !== stored || (queued !== undefined && queued !== stored) || waiting !== 0,
      };
    }

    /** The notifications service in a process of its own (it sends the webhooks), once it is ready. */
    const startNotifications = async (niceness) => {
      const healthPort = await freePort();
      const notifications = spawn(join(ROOT, 'node_modules/.bin/node'), [...profile, join(ROOT, 'apps/notifications/dist/main.js')], {
        cwd: ROOT,
        env: {
          ...env,
          HEALTH_PORT: String(healthPort),
          LOG_LEVEL: 'warn',
          WORKER_NICENESS: String(niceness),
          ...Object.fromEntries(PASSED_TO_NOTIFICATIONS.filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      workers.push(notifications);
      notifications.stdout.on('data', keep);
      notifications.stderr.on('data', keep);
      await waitForHealth(`http://127.0.0.1:${healthPort}`, notifications, output);
      return notifications;
    };

    // Webhooks: at rest (20 leads a second, one at a time), then under the submit run's load; once with the
    // notifications process at normal priority, then (BENCH_WEBHOOK_NICENESS) with it lowered as WORKER_NICENESS
    // does on a host shared with gateways. Each run on a page of its own, with its own receiver and process.
    // `viaHook`: the page has no webhook; an automation tool's hook subscription (/api/v1/hooks) receives instead.
    const webhookRun = async (niceness, viaHook = false) => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const slug = viaHook ? 'bench-hook-subscribed' : niceness ? `bench-hooked-nice${niceness}` : 'bench-hooked';
      const hooked = await json('POST', `${origin}/api/pages`, { slug, title: 'Hooked', ...(viaHook ? {} : { webhookUrl: receiver.url }) }, cookie);
      const hookedPageId = hooked.body.id;
      if (viaHook) {
        const { token } = (await json('POST', `${origin}/api/tokens`, { name: 'bench' }, cookie)).body;
        const subscribed = await fetch(`${origin}/api/v1/hooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'lead.created', target_url: receiver.url, page_id: hookedPageId }),
        });
        if (subscribed.status !== 201) throw new Error(`hook subscription refused: ${subscribed.status} ${await subscribed.text()}`);
      }
      const hookedToken = await formToken(origin, slug);
      const connections = CONNECTIONS[0];
      // The comparison: the plain submit (a page with a file e-mail, no webhook) run right before and right
      // after this run, on the same database. Each run leaves 100,000 more leads, and the submissions' rate
      // falls as the table grows (about 12,300 → 8,900 a second over four runs here): a plain run measured
      // once at the start favoured it over every later run.
      const plainBefore = await watchedSubmitRun(connections);
      // The notifications process serves the e-mail queue too: the submit part's file e-mails (counted above)
      // are dropped rather than written to disk during the measurement.
      const email = new Queue('email', { connection: { url: testRedisUrl() }, prefix: `${redisPrefix}bull` });
      await email.drain(true);
      await email.close();
      const notifications = await startNotifications(niceness);

      const atRest = [];
      for (let i = 0; i < 100; i++) {
        const email = `rest-${i}@bench.test`;
        const sent = Date.now();
        await json('POST', `${origin}/api/page/${slug}/submit`, { email, consent: true, formToken: hookedToken });
        const deadline = Date.now() + 10_000;
        let got;
        while ((await receiver.sync(), !(got = receiver.received.find((r) => r.email === email))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
        if (got) atRest.push(got.at - sent);
        await new Promise((r) => setTimeout(r, 50));
      }
      const before = receiver.received.length;
      const backlog = watchOutbox();
      // CPU from the start of the load until the last of its webhooks arrived.
      const meter = cpuMeter(database.url, { gateway: gateway.pid, notifications: notifications.pid, redis: redisServer, receiver: receiver.pid });
      await meter.start();
      const result = await cannon({
        url: `${origin}/api/page/${slug}/submit`,
        connections,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"email":"hooked-[<id>]@bench.test","consent":true,"formToken":"${hookedToken}"}`,
      });
      const outboxMax = await backlog.stop();
      // Wait for the deliveries to end (at most a minute after the run).
      const check = new pg.Client({ connectionString: database.url });
      await check.connect();
      const leadsOfPage = async () => (await check.query('select count(*)::int as n from leads.leads where page_id = $1', [hookedPageId])).rows[0].n;
      // Counting the page's leads takes the database milliseconds: counted again only when the receiver has
      // caught up with the last count (submissions cut off at the end of the run may still be stored).
      const deadline = Date.now() + 60_000;
      let stored = await leadsOfPage();
      while (Date.now() < deadline) {
        await receiver.sync();
        if (receiver.received.length >= stored) {
          await new Promise((r) => setTimeout(r, 200));
          const again = await leadsOfPage();
          if (again === stored) break;
          stored = again;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const cpu = await meter.stop();
      await new Promise((r) => setTimeout(r, 1_000));
      stored = await leadsOfPage();
      await check.end();
      await stopProcess(notifications);
      const plainAfter = await watchedSubmitRun(connections);
      await receiver.sync();
      const loaded = receiver.received.slice(before);
      const ids = new Set(receiver.received.map((r) => r.id));
      const emails = new Set(receiver.received.map((r) => r.email));
      const span = loaded.length ? (Math.max(...loaded.map((r) => r.at)) - Math.min(...loaded.map((r) => r.createdAt))) / 1000 : 1;
      const plain = { rps: Math.round((plainBefore.rps + plainAfter.rps) / 2), before: plainBefore.rps, after: plainAfter.rps };
      return {
        niceness,
        viaHook,
        receiverIdle: receiver.idle,
        connections,
        submit: { ...summary(result), outboxMax },
        plain,
        plainCpu: rows.find((r) => r.connections === connections)?.submit?.cpu,
        restP50: percentile(atRest, 0.5),
        restP99: percentile(atRest, 0.99),
        loadP50: percentile(loaded.map((r) => r.at - r.createdAt), 0.5),
        loadP99: percentile(loaded.map((r) => r.at - r.createdAt), 0.99),
        perSecond: Math.round(loaded.length / span),
        // Per lead of the load (each one webhook): the gateway's, the database's and the notifications process's CPU.
        cpu: perUnit(cpu, loaded.length),
        stored,
        received: receiver.received.length,
        uniqueIds: ids.size,
        uniqueEmails: emails.size,
      };
    };
    // One creator's receiver takes connections and never answers, and their page gets 200 leads at once; meanwhile
    // another creator's page gets 4 leads a second for 12.5 s (past the flood's first attempts timing out): how
    // long that creator's leads take to reach their (healthy) receiver.
    const hangingRun = async () => {
      const mute = await startMuteReceiver();
      const receiver = await startReceiver();
      receivers.push(receiver, mute);
      const other = { username: 'bench_other', email: 'other@bench.test', password: 'bench-password' };
      const registered = await json('POST', `${origin}/api/register`, other);
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      await db.query('update identity.users set is_verified = true, is_premium = true where id = $1', [registered.body.id]);
      await db.query('insert into leads.owner_plans (owner_id, is_pro, version) values ($1, true, 1) on conflict do nothing', [registered.body.id]);
      await db.end();
      const otherCookie = (await json('POST', `${origin}/api/login`, { email: other.email, password: other.password })).cookie;
      await json('POST', `${origin}/api/pages`, { slug: 'bench-hanging', title: 'Hanging', webhookUrl: mute.url }, cookie);
      await json('POST', `${origin}/api/pages`, { slug: 'bench-other', title: 'Other', webhookUrl: receiver.url }, otherCookie);
      const notifications = await startNotifications(0);
      const pageTokens = { 'bench-hanging': await formToken(origin, 'bench-hanging'), 'bench-other': await formToken(origin, 'bench-other') };
      const submit = (slug, email) => json('POST', `${origin}/api/page/${slug}/submit`, { email, consent: true, formToken: pageTokens[slug] });
      // Both endpoints known to the notifications service before measuring: a first lead on the other page arrives.
      await submit('bench-other', 'other-first@bench.test');
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && (await receiver.sync(), receiver.received.length === 0); ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (let batch = 0; batch < 4; batch++) {
        await Promise.all(Array.from({ length: 50 }, (_, i) => submit('bench-hanging', `flood-${batch * 50 + i}@bench.test`)));
      }
      const sent = new Map();
      for (let i = 0; i < 50; i++) {
        const email = `other-${i}@bench.test`;
        sent.set(email, Date.now());
        await submit('bench-other', email);
        await new Promise((r) => setTimeout(r, 250));
      }
      const deadline = Date.now() + 60_000;
      const arrived = () => receiver.received.filter((r) => sent.has(r.email));
      while ((await receiver.sync(), arrived().length < sent.size) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const latencies = arrived().map((r) => r.at - sent.get(r.email));
      await stopProcess(notifications);
      return {
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        sent: sent.size,
        received: arrived().length,
        uniqueIds: new Set(arrived().map((r) => r.id)).size,
        hangingAttempts: mute.requests,
      };
    };

    const webhooks = [];
    let hanging;
    if (PARTS.has('webhook')) {
      webhooks.push(await webhookRun(0));
      if (WEBHOOK_NICENESS > 0) webhooks.push(await webhookRun(WEBHOOK_NICENESS));
      webhooks.push(await webhookRun(0, true));
      hanging = await hangingRun();
    }

    const fmt = (s) => `${String(s.rps).padStart(7)} req/s  p50 ${String(s.p50).padStart(4)} ms  p99 ${String(s.p99).padStart(4)} ms${s.errors ? `  errors ${s.errors}` : ''}`;
    console.log(`\nPlink benchmark (${DURATION} s per run, page ${bytes.length} bytes, gateway workers: ${WORKERS}, log level info, load by ${loadTool})\n`);
    if (loadToolNote) console.log(`(${loadToolNote})\n`);
    for (const r of rows) {
      console.log(`${r.connections} connections`);
      if (r.plinkPage) {
        console.log(`  page    bare node:http  ${fmt(r.bare)}`);
        console.log(`  page    Plink           ${fmt(r.plinkPage)}   ratio ${(r.plinkPage.rps / r.bare.rps).toFixed(2)}×`);
        console.log(`  page br bare node:http  ${fmt(r.bareBr)}`);
        console.log(`  page br Plink           ${fmt(r.plinkPageBr)}   ratio ${(r.plinkPageBr.rps / r.bareBr.rps).toFixed(2)}×`);
      }
      if (r.submit) {
        console.log(`  submit  raw pg insert   ${fmt(r.raw)}`);
        console.log(`  submit  Plink           ${fmt(r.submit)}   ratio ${(r.submit.rps / r.raw.rps).toFixed(2)}×   outbox ≤ ${r.submit.outboxMax} jobs`);
        console.log(`          CPU per lead    gateway ${ms(r.submit.cpu.gateway)} ms  PostgreSQL ${ms(r.submit.cpu.postgres)} ms  Redis ${ms(r.submit.cpu.redis)} ms`);
      }
    }
    for (const w of webhooks) {
      const priority = w.niceness ? `at niceness ${w.niceness} (WORKER_NICENESS), the gateway first when the CPU is short` : 'at normal priority';
      console.log(`${w.viaHook ? 'one hook subscription (/api/v1/hooks), no page webhook' : 'webhooks'} (${w.connections} connections, notifications service in its own process ${priority})`);
      console.log(`  at rest  lead accepted → webhook received  p50 ${w.restP50} ms  p99 ${w.restP99} ms (100 leads, one at a time)`);
      console.log(`  submit   Plink with webhook  ${fmt(w.submit)}   vs without ${(w.submit.rps / w.plain.rps).toFixed(2)}×   outbox ≤ ${w.submit.outboxMax} jobs`);
      console.log(`           without (the plain submit just before and after)  ${w.plain.before} and ${w.plain.after} req/s`);
      console.log(`  deliver  ${w.perSecond} webhooks/s  lead stored → webhook received  p50 ${w.loadP50} ms  p99 ${w.loadP99} ms`);
      const plainCpu = w.plainCpu;
      console.log(
        `  CPU      per lead: gateway ${ms(w.cpu.gateway)} ms${plainCpu ? ` (${ms(plainCpu.gateway)} without webhooks)` : ''}, ` +
          `PostgreSQL ${ms(w.cpu.postgres)} ms${plainCpu ? ` (${ms(plainCpu.postgres)} without)` : ''}, ` +
          `Redis ${ms(w.cpu.redis)} ms${plainCpu ? ` (${ms(plainCpu.redis)} without)` : ''}; ` +
          `per webhook: notifications ${ms(w.cpu.notifications)} ms, the receiver (its own process${w.receiverIdle ? ', idle priority' : ''}) ${ms(w.cpu.receiver)} ms`,
      );
      console.log(`  ${w.stored} leads on the page, ${w.received} webhooks received, ${w.uniqueIds} webhook-ids, ${w.uniqueEmails} addresses`);
    }
    if (hanging) {
      console.log("webhooks with one creator's receiver hanging (takes connections, never answers) and 200 leads on that page");
      console.log(
        `  another creator's page, 4 leads a second: lead accepted → webhook received  p50 ${hanging.p50} ms  p99 ${hanging.p99} ms ` +
          `(${hanging.received} of ${hanging.sent} received, ${hanging.uniqueIds} webhook-ids); the hanging receiver got ${hanging.hangingAttempts} attempts`,
      );
    }
    const checks = [];
    if (hanging) {
      checks.push(["another creator's webhook p99 ≤ 1 s while a hanging receiver is flooded", hanging.p99 <= 1_000]);
      const once = hanging.received === hanging.sent && hanging.uniqueIds === hanging.sent;
      checks.push(["every lead of the other creator's page delivered once", once]);
      if (!once) process.exitCode = 1;
    }
    for (const webhook of webhooks) {
      const how = webhook.viaHook ? ', hook subscription' : webhook.niceness ? `, notifications at niceness ${webhook.niceness}` : '';
      if (webhook.viaHook) {
        checks.push([`hook p50 ≤ 100 ms at rest`, webhook.restP50 <= 100]);
        checks.push([`submit with one hook ≥ 0.9× without (${webhook.connections} connections)`, webhook.submit.rps / webhook.plain.rps >= 0.9]);
      } else {
        checks.push([`webhook p50 ≤ 250 ms at rest${how}`, webhook.restP50 <= 250]);
        checks.push([`submit with webhooks ≥ 0.85× without (${webhook.connections} connections${how})`, webhook.submit.rps / webhook.plain.rps >= 0.85]);
      }
      const once = webhook.received === webhook.stored && webhook.uniqueIds === webhook.stored && webhook.uniqueEmails === webhook.stored;
      checks.push([`every lead of the page delivered once${how}`, once]);
      if (!once) process.exitCode = 1;
    }
    for (const r of rows) {
      if (r.plinkPage && r.connections === 200) {
        checks.push(['page ≥ 0.6× bare node (200 connections)', r.plinkPage.rps / r.bare.rps >= 0.6]);
        checks.push(['page p99 ≤ 25 ms (200 connections)', r.plinkPage.p99 <= 25]);
        checks.push(['page as a browser asks (br) ≥ 0.6× bare node (200 connections)', r.plinkPageBr.rps / r.bareBr.rps >= 0.6]);
      }
      if (r.submit) checks.push([`submit ≥ 0.8× raw insert (${r.connections} connections)`, r.submit.rps / r.raw.rps >= 0.8]);
    }
    console.log('\nTargets');
    for (const [name, ok] of checks) console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${name}`);

    if (submitReport) {
      console.log(submitReport.text);
      if (submitReport.mismatch) {
        console.log('  MISMATCH: leads, conversions and jobs should each equal the successes (plus at most the requests cut off at the end).');
        process.exitCode = 1;
      }
    }
  } finally {
    baseline?.kill('SIGTERM');
    for (const receiver of receivers) receiver.close();
    for (const worker of workers) await stopProcess(worker);
    gateway.kill('SIGTERM');
    await new Promise((r) => (gateway.exitCode !== null ? r() : gateway.once('exit', r)));
    await database.drop().catch(() => undefined);
    await deleteRedisPrefix(testRedisUrl(), redisPrefix).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
