#!/usr/bin/env node
// `npm start`: the embedded default. One command on a fresh machine:
//   1. npm ci when node_modules is missing or stale (this part runs on any Node >= 18);
//   2. nx run-many -t build on the project's Node 24 (cached after the first run);
//   3. PostgreSQL: DATABASE_URL, else an embedded PostgreSQL in .data/postgres (tools/embedded-services.mjs);
//   4. Redis: REDIS_URL, else 127.0.0.1:6379 if it answers PING, else a redis-server child with data in .data/redis;
//   5. the gateway with every service's processors in-process (PLINK_WORKERS=all) on Node 24; in development, on a
//      database with no account yet, it makes the demo creator, whose sign-in is printed under the URL.
// Ctrl-C / SIGTERM: the signal goes to the app; once it has exited, the services started here are stopped.
//
// Environment (the shell wins over a `.env` file at the repo root; empty values count as unset):
//   DATABASE_URL, REDIS_URL, SMTP_URL   use these instead of the embedded defaults (SMTP_URL is passed through)
//   PORT (3000), HOST, APP_ORIGIN (http://localhost:$PORT), NODE_ENV (development)
//   PLINK_WORKERS (all; only a value set in the shell overrides it, not one from .env)
//   EMBEDDED_PG_PORT (5433)             port for the embedded PostgreSQL; a free port is used when it is busy
//   PLINK_REDIS_PROBE_PORT (6379)       port on 127.0.0.1 where Redis is looked for and, failing that, started
//   PLINK_ENTRY                         script to run instead of apps/gateway/dist/main.js (stand-ins, debugging)
//   PLINK_SKIP_BUILD=1                  skip the nx build step
//   PLINK_STOP_TIMEOUT_MS (20000)       how long the app gets to exit after Ctrl-C before it is killed
//   PLINK_RUNTIME_FILE (.data/npm-start.json)  where the settings below are written while it runs (tests)
//   PLINK_DEMO_SEED                     read by the gateway: `false` keeps an empty database empty (no demo creator)
//
// While the app runs, the database, Redis and key prefix it was given are written to .data/npm-start.json (with
// this launcher's pid; removed when it stops): `npm run plink -- <command>` in this checkout reads them, so it
// reaches the very app npm start runs. Only the launcher knows them (a busy port, Redis found or started, .env).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants as fsConstants, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { ensureInstalled, NODE24, node24Env, nxEnv, nxScript, ROOT, since } from './bootstrap.mjs';

const DATA_ROOT = path.join(ROOT, '.data');
const RUNTIME_FILE = process.env.PLINK_RUNTIME_FILE ? path.resolve(process.env.PLINK_RUNTIME_FILE) : path.join(DATA_ROOT, 'npm-start.json');
const say = (msg) => console.error(`[plink] ${msg}`);

// ---- state shared with the signal handlers ------------------------------------------------------------------
const state = {
  phase: 'starting', // starting → running → stopping
  build: null, // nx child while building
  services: null, // tools/embedded-services.mjs child (embedded PostgreSQL and/or redis-server)
  app: null,
  ready: false, // the "4/4 ready" line is out
  demo: null, // the demo creator's sign-in, as the app tells it (development only)
  forwarded: null, // signal forwarded to the app
  lastSignalAt: 0,
  env: process.env, // process.env merged with .env, once main() has read it
};

// ---- small helpers --------------------------------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (child) => !!child && child.exitCode === null && child.signalCode === null;
const exited = (child) =>
  alive(child) ? new Promise((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
const exitCodeOf = (code, signal) => (code ?? 128 + (osConstants.signals[signal] || 1));

function maskUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':****@');
  }
}

/** KEY=VALUE lines of <repo>/.env (optional quotes, # comments, `export ` prefix). Empty values are skipped. */
function readDotEnv(file) {
  if (!existsSync(file)) return {};
  const out = {};
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!m) continue;
    let value = m[2];
    const q = value[0];
    if ((q === '"' || q === "'") && value.lastIndexOf(q) > 0) {
      value = value.slice(1, value.lastIndexOf(q));
      if (q === '"') value = value.replace(/\\n/g, '\n');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    if (value !== '') out[m[1]] = value;
  }
  return out;
}

function onPath(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, cmd);
    try {
      accessSync(file, fsConstants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Sends PING to host:port. → 'pong' | 'loading' | 'auth' | 'other' (something else listens) | 'none'. */
function redisPing(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    let buf = '';
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(result);
    };
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs, () => finish(buf ? 'other' : 'none'));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      if (!buf.includes('\r\n')) return;
      if (buf.startsWith('+PONG')) finish('pong');
      else if (buf.startsWith('-LOADING')) finish('loading');
      else if (/^-(NOAUTH|ERR.*auth)/i.test(buf)) finish('auth');
      else finish('other');
    });
    socket.on('error', () => finish('none'));
    socket.on('close', () => finish(buf ? 'other' : 'none'));
  });
}

function portInUse(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err) => resolve(err.code === 'EADDRINUSE'));
    srv.listen({ port, host }, () => srv.close(() => resolve(false)));
  });
}

function waitForPort(port, host, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const attempt = () => {
      if (!alive(state.app) || state.phase !== 'running') return resolve(false);
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) resolve(false);
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

// ---- services --------------------------------------------------------------------------------------------------
/**
 * Starts tools/embedded-services.mjs on Node 24 in its own process group (a Ctrl-C in the terminal then reaches
 * the launcher only; PostgreSQL and Redis are stopped after the app) and asks it for the given services.
 * Resolves with its ready message.
 */
function startServices(env, request) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE24, [path.join(ROOT, 'tools', 'embedded-services.mjs')], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    state.services = child;
    let settled = false;
    const settle = (fn, value) => {
      if (!settled) {
        settled = true;
        fn(value);
      }
    };
    child.on('message', (msg) => {
      if (!msg || typeof msg !== 'object') return;
      if (msg.type === 'ready') settle(resolve, msg);
      else if (msg.type === 'error') settle(reject, new Error(msg.message));
      else if (msg.type === 'died' && state.phase === 'running') say(`${msg.message}; the app will see errors`);
    });
    child.on('error', (err) => settle(reject, err));
    child.on('exit', (code, signal) => {
      settle(reject, new Error(`the embedded services helper exited (${signal || `code ${code}`}) before it was ready`));
    });
    child.send({ type: 'start', ...request });
  });
}

async function stopServices() {
  const child = state.services;
  if (!alive(child)) return;
  if (child.connected) child.send({ type: 'stop' });
  else child.kill('SIGTERM');
  if (!(await Promise.race([exited(child).then(() => true), sleep(30000).then(() => false)]))) {
    say('the embedded services helper does not stop; sending SIGTERM');
    child.kill('SIGTERM');
    await Promise.race([exited(child), sleep(5000)]);
  }
}

let finishing = false;
async function finish(code) {
  if (finishing) return;
  finishing = true;
  state.phase = 'stopping';
  removeRuntimeFile();
  if (alive(state.services)) say('stopping the services npm start started...');
  await stopServices();
  process.exit(code);
}

// Last resort (uncaught error, process.exit elsewhere): do not leave detached children behind.
process.on('exit', () => {
  removeRuntimeFile();
  for (const child of [state.app, state.services]) if (alive(child)) child.kill('SIGTERM');
});

/**
 * The settings the app runs with, for the operator's command in this checkout (see the header). Mode 0600: it
 * holds the database password, like .data/postgres.password.
 */
function writeRuntimeFile(env) {
  const settings = { pid: process.pid, DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, REDIS_PREFIX: env.REDIS_PREFIX };
  writeFileSync(RUNTIME_FILE, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the runtime file if it is this launcher's (another npm start in this checkout may have written it since). */
function removeRuntimeFile() {
  try {
    if (JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')).pid === process.pid) rmSync(RUNTIME_FILE, { force: true });
  } catch {
    /* none, or not ours */
  }
}

// ---- signals ------------------------------------------------------------------------------------------------------
function onSignal(sig) {
  const now = Date.now();
  // Ctrl-C arrives twice (from the terminal and forwarded by npm): one press counts once.
  if (now - state.lastSignalAt < 1500) return;
  state.lastSignalAt = now;

  if (state.phase === 'starting') {
    state.phase = 'stopping';
    if (alive(state.build)) state.build.kill('SIGTERM');
    finish(exitCodeOf(null, sig));
    return;
  }
  if (!alive(state.app)) return;
  if (!state.forwarded) {
    state.forwarded = sig;
    state.phase = 'stopping';
    say(`${sig}: stopping the app...`);
    state.app.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
    const timeout = Number(state.env.PLINK_STOP_TIMEOUT_MS || 20000);
    setTimeout(() => {
      if (alive(state.app)) {
        say(`the app did not exit within ${timeout} ms; killing it`);
        state.app.kill('SIGKILL');
      }
    }, timeout).unref();
  } else {
    say('second signal: killing the app');
    state.app.kill('SIGKILL');
  }
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => onSignal(sig));

// ---- main -----------------------------------------------------------------------------------------------------------
async function main() {
  const env = { ...readDotEnv(path.join(ROOT, '.env')), ...process.env };
  for (const key of Object.keys(env)) if (env[key] === '') delete env[key];
  state.env = env;

  try {
    await ensureInstalled('1/4 install', { reportCurrent: true });
  } catch (err) {
    say(err.message);
    return finish(1);
  }

  if (env.PLINK_SKIP_BUILD !== '1' && env.PLINK_SKIP_BUILD !== 'true') {
    say('2/4 build: building every project (the first time a few minutes, then seconds from the Nx cache)...');
    const started = Date.now();
    // Output is kept and shown only when the build fails.
    const output = [];
    try {
      await new Promise((resolve, reject) => {
        const child = spawn(NODE24, [nxScript(), 'run-many', '-t', 'build', '--outputStyle=static'], {
          cwd: ROOT,
          env: nxEnv(env),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        state.build = child;
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', reject);
        child.on('close', (code, signal) =>
          code === 0 ? resolve() : reject(new Error(signal ? `killed by ${signal}` : `exit code ${code}`)),
        );
      });
    } catch (err) {
      if (state.phase !== 'starting') return;
      process.stderr.write(Buffer.concat(output));
      say(`the build failed (${err.message}); fix the errors above and run npm start again`);
      return finish(1);
    }
    const text = Buffer.concat(output).toString('utf8');
    const cached = /from the cache instead of running the command for (\d+) out of (\d+) tasks/.exec(text);
    say(`2/4 build: done in ${since(started)}` + (cached ? ` (${cached[1]} of ${cached[2]} tasks from the Nx cache)` : ''));
  } else {
    say('2/4 build: skipped (PLINK_SKIP_BUILD)');
  }
  if (state.phase !== 'starting') return;

  const entry = path.resolve(ROOT, env.PLINK_ENTRY || path.join('apps', 'gateway', 'dist', 'main.js'));
  if (!existsSync(entry)) {
    say(`${path.relative(ROOT, entry)} does not exist; the build did not produce it`);
    return finish(1);
  }

  const port = Number(env.PORT || 3000);
  const host = env.HOST || '0.0.0.0';
  if (await portInUse(port, host)) {
    say(`port ${port} is already in use (another npm start?); stop that process or set PORT`);
    return finish(1);
  }

  await mkdir(DATA_ROOT, { recursive: true });
  if (state.phase !== 'starting') return;

  // Decide what to start: PostgreSQL unless DATABASE_URL; Redis unless REDIS_URL or one answers on the probe port.
  const request = { postgres: !env.DATABASE_URL, redis: null };
  let dbNote = 'from DATABASE_URL';
  let redisNote = 'from REDIS_URL';
  if (env.REDIS_URL) {
    // Used as given. A loopback URL where nothing answers gets a hint, since unsetting it enables the fallback.
    try {
      const u = new URL(env.REDIS_URL);
      const host = u.hostname === '[::1]' ? '::1' : u.hostname;
      if (['127.0.0.1', 'localhost', '::1'].includes(host) && (await redisPing(Number(u.port || 6379), host)) === 'none') {
        say(
          `nothing answers at REDIS_URL ${maskUrl(env.REDIS_URL)}; unset REDIS_URL (shell and .env) to let npm start run redis-server`,
        );
      }
    } catch {
      /* not a URL: the app reports it */
    }
  } else {
    const probePort = Number(env.PLINK_REDIS_PROBE_PORT || 6379);
    const probe = await redisPing(probePort);
    if (probe === 'pong' || probe === 'loading') {
      redisNote = 'already running';
      env.REDIS_URL = `redis://127.0.0.1:${probePort}`;
    } else if (probe === 'auth') {
      say(`the Redis on 127.0.0.1:${probePort} wants a password: set REDIS_URL=redis://:<password>@127.0.0.1:${probePort}`);
      return finish(1);
    } else if (probe === 'other') {
      say(`something that is not Redis listens on 127.0.0.1:${probePort}: set REDIS_URL`);
      return finish(1);
    } else {
      const bin = onPath('redis-server');
      if (!bin) {
        console.error(
          'Plink needs Redis: set REDIS_URL, or install redis-server (apt-get install redis-server) and run npm start again.',
        );
        return finish(1);
      }
      request.redis = { bin, port: probePort };
    }
  }
  if (state.phase !== 'starting') return;

  if (request.postgres || request.redis) {
    const what = [];
    if (request.postgres) what.push('embedded PostgreSQL (.data/postgres)');
    if (request.redis) what.push(`redis-server on port ${request.redis.port} (.data/redis)`);
    say(`3/4 database: starting ${what.join(' and ')}...`);
    const servicesStarted = Date.now();
    let ready;
    try {
      ready = await startServices(node24Env(env), request);
    } catch (err) {
      if (state.phase !== 'starting') return;
      say(err.message);
      return finish(1);
    }
    if (ready.postgres) {
      env.DATABASE_URL = ready.postgres.url;
      dbNote = `embedded PostgreSQL${ready.postgres.initialised ? ', new cluster' : ''}, data in .data/postgres`;
    }
    if (ready.redis) {
      env.REDIS_URL = ready.redis.url;
      redisNote = 'redis-server started by npm start, data in .data/redis';
    }
    say(`3/4 database: ready in ${since(servicesStarted)}`);
  } else {
    say(`3/4 database: PostgreSQL ${dbNote}, Redis ${redisNote}`);
  }
  if (state.phase !== 'starting') return;

  // The app
  env.PORT = String(port);
  env.NODE_ENV = env.NODE_ENV || 'development';
  // The embedded default runs every service's processors; only the shell can override that (a .env copied
  // from .env.example says `none`, the gateway's own default when it runs alone).
  env.PLINK_WORKERS = process.env.PLINK_WORKERS || 'all';
  env.APP_ORIGIN = env.APP_ORIGIN || `http://localhost:${port}`;
  // One Redis key prefix per checkout (stable across restarts, even when the embedded PostgreSQL had to take
  // another port): two checkouts on one machine's Redis never take each other's jobs.
  env.REDIS_PREFIX = env.REDIS_PREFIX || checkoutRedisPrefix();
  const mail = env.SMTP_URL
    ? `${maskUrl(env.SMTP_URL)} (SMTP_URL)`
    : `written to ${env.MAIL_OUTBOX_DIR || '.data/mail'} (no SMTP_URL); links are printed in the log`;
  console.error(
    [
      '',
      `  Plink         ${env.APP_ORIGIN}`,
      `  database      ${maskUrl(env.DATABASE_URL)} (${dbNote})`,
      `  redis         ${maskUrl(env.REDIS_URL)} (${redisNote}), keys under ${env.REDIS_PREFIX}`,
      `  mail          ${mail}`,
      `  workers       ${env.PLINK_WORKERS} · NODE_ENV=${env.NODE_ENV} · ${entry.startsWith(ROOT + path.sep) ? path.relative(ROOT, entry) : entry}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );

  try {
    writeRuntimeFile(env);
  } catch (err) {
    say(`could not write ${RUNTIME_FILE} (${err.message}); npm run plink will need DATABASE_URL, REDIS_URL and REDIS_PREFIX`);
  }

  state.phase = 'running';
  const appStarted = Date.now();
  // Own process group, so the terminal's Ctrl-C reaches the app once (forwarded by onSignal), not twice. The IPC
  // channel carries one message: the demo creator's sign-in, which the app's log never holds (no addresses or
  // passwords in logs); it is printed here beside the URL.
  const app = spawn(NODE24, [entry], { cwd: ROOT, env: node24Env(env), stdio: ['inherit', 'inherit', 'inherit', 'ipc'], detached: true });
  state.app = app;
  app.on('message', (msg) => {
    if (!msg || typeof msg !== 'object' || msg.type !== 'demo-creator' || typeof msg.email !== 'string' || typeof msg.password !== 'string') return;
    state.demo = msg;
    if (state.ready) say(demoLine());
  });
  // If the launcher itself is killed (kill -9), the helper stops the app before the services.
  if (alive(state.services) && state.services.connected) state.services.send({ type: 'app', pid: app.pid });
  app.on('error', (err) => {
    say(`could not start the app: ${err.message}`);
    finish(1);
  });
  app.on('exit', (code, signal) => {
    if (state.forwarded) {
      // Stopped on request: a clean exit, or death by the very signal we sent, is success.
      const ok = code === 0 || signal === state.forwarded || (code === null && signal === 'SIGTERM');
      finish(ok ? 0 : exitCodeOf(code, signal));
    } else {
      say(`the app exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`);
      finish(code === 0 ? 1 : exitCodeOf(code, signal));
    }
  });

  const probeHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  if (await waitForPort(port, probeHost, 120000)) {
    // One write: the sign-in stays right under the URL whatever the app prints meanwhile.
    say([`4/4 ready in ${since(appStarted)}: ${env.APP_ORIGIN}`, ...(state.demo ? [demoLine()] : [])].join('\n[plink] '));
    state.ready = true;
  }
}

/**
 * The demo creator's sign-in, for under the URL (the gateway makes it on an empty development database; see
 * docs/operations.md). Printed on every start while it still signs in with it, so it never has to be looked up.
 */
function demoLine() {
  const { email, password, created } = state.demo;
  return `    sign in as the demo creator: ${email} / ${password}  (development only${created ? '; made now, with a sample page and leads' : ''})`;
}

main().catch((err) => {
  say(err && err.stack ? err.stack : String(err));
  finish(1);
});

/** `plink:<folder>-<6 hex of this checkout's path>:` */
function checkoutRedisPrefix() {
  const folder = path.basename(ROOT).replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40) || 'plink';
  return `plink:${folder}-${createHash('sha256').update(ROOT).digest('hex').slice(0, 6)}:`;
}
