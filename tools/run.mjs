#!/usr/bin/env node
// `npm test|build|lint|typecheck|e2e|bench|bench:ops|lighthouse` → `nx run-many -t <target>` (bench:ops: bench-ops) on the project's Node 24.
// `lint` then runs knip over the whole workspace (unused files, exports and dependencies; see knip.jsonc).
//
// Usage: node tools/run.mjs <target> [extra nx args...]
//   e.g. npm test -- --projects=@plink/contracts
// Runs on any Node >= 18: it installs dependencies first when needed (tools/bootstrap.mjs), then starts
// Nx with node_modules/.bin/node and that directory first on PATH, so every task runs on Node 24.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { ensureInstalled, NODE24, nxEnv, nxScript, ROOT } from './bootstrap.mjs';

const TARGETS = {
  test: ['run-many', '-t', 'test', '--parallel=1', '--outputStyle=stream'],
  build: ['run-many', '-t', 'build'],
  lint: ['run-many', '-t', 'lint'],
  typecheck: ['run-many', '-t', 'typecheck'],
  e2e: ['run-many', '-t', 'e2e', '--parallel=1', '--outputStyle=stream'],
  bench: ['run-many', '-t', 'bench', '--parallel=1', '--outputStyle=stream'],
  'bench-ops': ['run-many', '-t', 'bench-ops', '--parallel=1', '--outputStyle=stream'],
  lighthouse: ['run-many', '-t', 'lighthouse', '--parallel=1', '--outputStyle=stream'],
};

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

/** The steps of the target, run one after the other while they succeed. */
const steps = [{ name: 'nx', args: [nxScript(), ...TARGETS[target], ...extra] }];
if (target === 'lint') steps.push({ name: 'knip', args: [path.join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js'), '--no-progress'] });

let child;
// The child usually gets Ctrl-C from the terminal itself; forwarding covers `kill <pid>` and CI timeouts.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}

function runStep(index) {
  const step = steps[index];
  child = spawn(NODE24, step.args, { cwd: ROOT, stdio: 'inherit', env: nxEnv(process.env) });
  child.on('error', (err) => {
    console.error(`[plink] could not start ${step.name}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (code === 0 && index + 1 < steps.length) return runStep(index + 1);
    process.exit(code ?? 128 + (constants.signals[signal] || 1));
  });
}
runStep(0);
