// Shared helpers for the npm-script entry points (tools/run.mjs, tools/start.mjs).
//
// This file runs on whatever Node npm itself runs on (system Node 18/20 on a fresh machine), so it uses
// only core modules and syntax/APIs that Node 18 has. Its job is to get node_modules in place and hand
// everything else to the Node 24 that the `node` devDependency installs at node_modules/.bin/node.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN_DIR = path.join(ROOT, 'node_modules', '.bin');
/** The project's Node 24 (the npm `node` devDependency). */
export const NODE24 = path.join(BIN_DIR, process.platform === 'win32' ? 'node.exe' : 'node');

const MIN_NODE_MAJOR = 24;

/** Why `npm ci` is needed, or null when node_modules looks current. */
function installReason() {
  const nm = path.join(ROOT, 'node_modules');
  if (!existsSync(nm)) return 'node_modules is missing';
  // existsSync follows the symlink, so a dangling .bin/node (after npm ci --ignore-scripts) counts as missing.
  if (!existsSync(NODE24)) return 'node_modules/.bin/node (the project Node 24) is missing';
  const lock = path.join(ROOT, 'package-lock.json');
  const hidden = path.join(nm, '.package-lock.json');
  if (!existsSync(hidden)) return 'node_modules/.package-lock.json is missing';
  // 2 s of slack: npm writes both files during one install.
  if (existsSync(lock) && statSync(lock).mtimeMs > statSync(hidden).mtimeMs + 2000) {
    return 'package-lock.json is newer than node_modules';
  }
  return null;
}

/** Major version of the project Node, or 0 when it does not run. */
function node24Major() {
  const r = spawnSync(NODE24, ['--version'], { encoding: 'utf8' });
  const m = /^v(\d+)\./.exec((r.stdout || '').trim());
  return m ? Number(m[1]) : 0;
}

/** Seconds since `started`, for the progress lines (`12.3 s`). */
export function since(started) {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * Runs `npm ci` when node_modules is missing or stale, then checks that node_modules/.bin/node is Node 24+.
 * Prints one progress line before and one after. npm runs on the system's Node, which is older than what
 * many packages declare (the project itself runs on the Node 24 it installs): its engine warnings, one
 * block per package, say nothing useful here, so npm prints errors only (`--loglevel=error`); a failing
 * install still shows npm's error in full. Throws an Error with a one-line message on failure.
 * `label` prefixes the progress lines (`1/4 install`); `reportCurrent` also says so when nothing was needed.
 */
export async function ensureInstalled(label = 'install', { reportCurrent = false } = {}) {
  const reason = installReason();
  if (reason) {
    const fresh = !existsSync(path.join(ROOT, 'node_modules'));
    console.error(
      fresh
        ? `[plink] ${label}: first run, installing dependencies with npm ci (about 1 GB once unpacked, the project's Node 24 included; a few minutes)...`
        : `[plink] ${label}: ${reason}, running npm ci...`,
    );
    const started = Date.now();
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    try {
      await run(npm, ['ci', '--loglevel=error', '--no-fund', '--no-audit', '--no-progress'], { cwd: ROOT, shell: process.platform === 'win32' });
    } catch (err) {
      throw new Error(`npm ci failed (${err.message}). Fix the error above and run the command again.`, { cause: err });
    }
    const still = installReason();
    if (still) throw new Error(`npm ci finished but ${still}. Was it run with --ignore-scripts?`);
    console.error(`[plink] ${label}: dependencies installed in ${since(started)}`);
  }
  const major = node24Major();
  if (major < MIN_NODE_MAJOR) {
    throw new Error(
      `node_modules/.bin/node is not Node ${MIN_NODE_MAJOR}+ (${major ? `found v${major}` : 'it does not run'}). ` +
        'Delete node_modules and run `npm ci` (with install scripts enabled).',
    );
  }
  if (!reason && reportCurrent) console.error(`[plink] ${label}: dependencies up to date`);
}

/** A copy of `base` whose PATH starts with <repo>/node_modules/.bin, so `node` resolves to Node 24. */
export function node24Env(base = process.env) {
  const env = { ...base };
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') || 'PATH';
  env[key] = env[key] ? `${BIN_DIR}${path.delimiter}${env[key]}` : BIN_DIR;
  return env;
}

/** Absolute path of the nx CLI script (read from nx's package.json, its location moved between versions). */
export function nxScript() {
  const pkgDir = path.join(ROOT, 'node_modules', 'nx');
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin && pkg.bin.nx;
  if (!bin) throw new Error('node_modules/nx/package.json has no "nx" bin entry');
  return path.join(pkgDir, bin);
}

/** Environment for non-interactive Nx runs: no daemon, no cloud, no TUI. */
export function nxEnv(base = process.env) {
  return {
    ...node24Env(base),
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
  };
}

/**
 * Spawns `cmd args` (stdio inherited unless opts.stdio says otherwise).
 * Resolves with { code: 0 } on success; rejects with an Error carrying .code (exit code or null) and
 * .signal otherwise, or the spawn error (e.g. ENOENT).
 */
export function run(cmd, args = [], opts = {}) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(cmd, args, { stdio: 'inherit', ...opts });
    } catch (err) {
      reject(err);
      return;
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) {
        resolve({ code: 0 });
        return;
      }
      const err = new Error(signal ? `${cmd} was killed by ${signal}` : `${cmd} exited with code ${code}`);
      err.code = code;
      err.signal = signal;
      reject(err);
    });
  });
}
