#!/usr/bin/env node
// `npm run build|lint|typecheck|e2e|bench|bench:ops|lighthouse` → `nx run-many -t <target>` (bench:ops: bench-ops) on the project's Node 24.
// `npm run test:unit` → every project's test-unit target (the tests that need no PostgreSQL, Redis or browser);
// `npm test` → that tier, then the build and every project's integration tests in one run (tools/jest-int.mjs
// --workspace); with nx arguments, the chosen projects' test-int targets instead. See docs/testing.md.
// `lint` then runs knip over the whole workspace (unused files, exports and dependencies; see knip.jsonc).
//
// Usage: node tools/run.mjs <target> [extra nx args...]   (the extra arguments go to each nx step)
//   e.g. npm test -- --projects=@plink/contracts
// Runs on any Node >= 18: it installs dependencies first when needed (tools/bootstrap.mjs), then starts
// Nx with node_modules/.bin/node and that directory first on PATH, so every task runs on Node 24.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { ensureInstalled, NODE24, nxEnv, nxScript, ROOT } from './bootstrap.mjs';

// The unit tier needs no services and no build (jest maps @plink/* to the sources), so two projects run at once;
// `static` prints each project's output in one piece when it ends instead of interleaving the two.
const UNIT_TIER = ['run-many', '-t', 'test-unit', '--parallel=2', '--outputStyle=static'];
// The integration tier builds first, then runs every project's files in one jest run (tools/jest-int.mjs
// --workspace): two files at a time across projects, then those marked `@run-alone` one at a time, so at most two
// integration files ever share the 2 cores. Its tests share the machine's PostgreSQL and Redis and start whole apps.
const BUILD = ['run-many', '-t', 'build', '--outputStyle=static'];
const INT_WORKSPACE = { name: 'test-int', args: [path.join(ROOT, 'tools', 'jest-int.mjs'), '--workspace'] };
// With nx arguments (`npm test -- --projects=@plink/identity`), the chosen projects' own test-int targets, one
// project at a time (each builds what it needs first).
const INT_TIER = ['run-many', '-t', 'test-int', '--parallel=1', '--outputStyle=stream'];

/** Each target's nx invocations, run one after the other. */
const TARGETS = {
  test: [UNIT_TIER, INT_TIER],
  'test-unit': [UNIT_TIER],
  build: [['run-many', '-t', 'build']],
  lint: [['run-many', '-t', 'lint']],
  typecheck: [['run-many', '-t', 'typecheck']],
  e2e: [['run-many', '-t', 'e2e', '--parallel=1', '--outputStyle=stream']],
  bench: [['run-many', '-t', 'bench', '--parallel=1', '--outputStyle=stream']],
  'bench-ops': [['run-many', '-t', 'bench-ops', '--parallel=1', '--outputStyle=stream']],
  lighthouse: [['run-many', '-t', 'lighthouse', '--parallel=1', '--outputStyle=stream']],
};
// `npm test` runs the integration tier even when a unit test failed, so one run reports every failure; elsewhere a
// failed step ends the run (knip after a failed ESLint would only add noise).
const KEEP_GOING = new Set(['test']);

const [target, ...extra] = process.argv.slice(2);
if (!target || !Object.prototype.hasOwnProperty.call(TARGETS, target)) {
  console.error(`usage: node tools/run.mjs <${Object.keys(TARGETS).join('|')}> [nx args...]`);
  process.exit(2);
}

try {
  await ensureInstalled();
} catch (err) {
  console.error(`[plink] ${err.message}`);
  process.exit(1);
}

/** The steps of the target, run one after the other. */
const steps = TARGETS[target].map((nxArgs) => ({ name: 'nx', args: [nxScript(), ...nxArgs, ...extra] }));
if (target === 'test' && extra.length === 0) {
  steps.pop();
  steps.push({ name: 'nx', args: [nxScript(), ...BUILD] }, INT_WORKSPACE);
}
if (target === 'lint') steps.push({ name: 'knip', args: [path.join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js'), '--no-progress'] });

let child;
let stopped = false;
// The child usually gets Ctrl-C from the terminal itself; forwarding covers `kill <pid>` and CI timeouts.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    stopped = true;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}

/** Runs steps[index] and those after it; exits with the first failed step's code, or 0. */
function runStep(index, failure = 0) {
  const step = steps[index];
  child = spawn(NODE24, step.args, { cwd: ROOT, stdio: 'inherit', env: nxEnv(process.env) });
  child.on('error', (err) => {
    console.error(`[plink] could not start ${step.name}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    const status = code ?? 128 + (constants.signals[signal] || 1);
    // A step ended by a signal (Ctrl-C, a timeout) ends the run whatever the target.
    const goOn = !stopped && signal === null && (status === 0 || KEEP_GOING.has(target));
    if (goOn && index + 1 < steps.length) return runStep(index + 1, failure || status);
    process.exit(failure || status);
  });
}
runStep(0);
