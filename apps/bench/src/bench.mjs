// `npm run bench`: Plink's two hot paths under load, each beside a baseline measured in the same run
// on the same machine, printed as ratios (absolute numbers drift ±30 % between runs on shared machines).
//   page:   GET /{slug} (server-rendered landing page)  vs  bare node:http serving the same bytes
//   submit: POST /api/page/{slug}/submit (unique e-mails) vs  raw pg INSERT … ON CONFLICT DO NOTHING loop
// Each at 50 and 200 connections. Targets (issue 3): page ≥ 0.6× bare node, submit ≥ 0.5× raw insert,
// page p99 ≤ 25 ms at 200 connections.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import testing from '@plink/testing';

const { createTestDatabase, deleteRedisPrefix, freePort, testRedisUrl, uniqueRedisPrefix } = testing;
const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = [50, 200];
// Production shape: the gateway alone, its jobs queued for workers that run elsewhere (BENCH_WORKERS=all
// runs every service's processors in the measured process too, as `npm start` does).
const WORKERS = process.env.BENCH_WORKERS ?? 'none';

function cannon(opts) {
  return new Promise((res, rej) => {
    autocannon({ duration: DURATION, pipelining: 1, ...opts }, (err, result) => (err ? rej(err) : res(result)));
  });
}

const summary = (r) => ({
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts + (r.non2xx ?? 0),
});

async function waitForHealth(url, child, output) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited:\n${output.join('')}`);
    const ok = await fetch(`${url}/health`).then((r) => r.ok).catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gateway did not become healthy:\n${output.join('')}`);
}

async function json(method, url, body, cookie) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return { body: text ? JSON.parse(text) : undefined, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

/** The raw insert baseline: the same unique rule as leads, through a pg pool of 10, `connections` in flight. */
async function rawInsertLoop(databaseUrl, connections) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`create table if not exists bench_raw (id bigserial primary key, page_id int not null, email text not null,
    email_lower text not null, created_at timestamptz not null default now())`);
  await pool.query('create unique index if not exists bench_raw_key on bench_raw (page_id, email_lower)');
  const latencies = [];
  let n = 0;
  const end = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const i = n++;
        const started = performance.now();
        await pool.query(
          'insert into bench_raw (page_id, email, email_lower) values ($1, $2, lower($2)) on conflict (page_id, email_lower) do nothing',
          [1, `Raw${i}-${connections}@bench.test`],
        );
        latencies.push(performance.now() - started);
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { rps: Math.round(latencies.length / DURATION), p50: at(0.5), p99: at(0.99), errors: 0 };
}

async function main() {
  const database = await createTestDatabase();
  const redisPrefix = uniqueRedisPrefix();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const work = mkdtempSync(join(tmpdir(), 'plink-bench-'));
  const output = [];
  const gateway = spawn(join(ROOT, 'node_modules/.bin/node'), [join(ROOT, 'apps/gateway/dist/main.js')], {
    cwd: ROOT,
    env: {
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
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      MAIL_OUTBOX_DIR: join(work, 'mail'),
      UPLOADS_DIR: join(work, 'uploads'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    await db.end();
    const { cookie } = await json('POST', `${origin}/api/login`, { email: who.email, password: who.password });
    await json(
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

    baseline = fork(join(ROOT, 'apps/bench/src/baseline-server.mjs'), [pageFile], { stdio: 'ignore' });
    const baselinePort = await new Promise((res) => baseline.once('message', (m) => res(m.port)));

    const rows = [];
    for (const connections of CONNECTIONS) {
      const bare = summary(await cannon({ url: `http://127.0.0.1:${baselinePort}/`, connections }));
      const plinkPage = summary(await cannon({ url: `${origin}/bench-guide`, connections, headers: { 'user-agent': 'Mozilla/5.0 (bench)' } }));
      const raw = await rawInsertLoop(database.url, connections);
      const submit = summary(
        await cannon({
          url: `${origin}/api/page/bench-guide/submit`,
          connections,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"email":"visitor-[<id>]@bench.test","consent":true}`,
          idReplacement: true,
        }),
      );
      rows.push({ connections, bare, plinkPage, raw, submit });
    }

    const fmt = (s) => `${String(s.rps).padStart(7)} req/s  p50 ${String(s.p50).padStart(4)} ms  p99 ${String(s.p99).padStart(4)} ms${s.errors ? `  errors ${s.errors}` : ''}`;
    console.log(`\nPlink benchmark (${DURATION} s per run, page ${bytes.length} bytes, gateway workers: ${WORKERS}, log level info)\n`);
    for (const r of rows) {
      console.log(`${r.connections} connections`);
      console.log(`  page    bare node:http  ${fmt(r.bare)}`);
      console.log(`  page    Plink           ${fmt(r.plinkPage)}   ratio ${(r.plinkPage.rps / r.bare.rps).toFixed(2)}×`);
      console.log(`  submit  raw pg insert   ${fmt(r.raw)}`);
      console.log(`  submit  Plink           ${fmt(r.submit)}   ratio ${(r.submit.rps / r.raw.rps).toFixed(2)}×`);
    }
    const at200 = rows.find((r) => r.connections === 200);
    const checks = [
      ['page ≥ 0.6× bare node (200 connections)', at200.plinkPage.rps / at200.bare.rps >= 0.6],
      ['submit ≥ 0.5× raw insert (200 connections)', at200.submit.rps / at200.raw.rps >= 0.5],
      ['page p99 ≤ 25 ms (200 connections)', at200.plinkPage.p99 <= 25],
    ];
    console.log('\nTargets');
    for (const [name, ok] of checks) console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${name}`);
    const leads = await new pg.Client({ connectionString: database.url });
    await leads.connect();
    const stored = (await leads.query('select count(*)::int as n from leads.leads')).rows[0].n;
    await leads.end();
    console.log(`\n${stored} leads stored by the submit runs; every answer was ${rows.every((r) => !r.submit.errors) ? 'a success' : 'NOT a success'}.`);
  } finally {
    baseline?.kill('SIGTERM');
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
