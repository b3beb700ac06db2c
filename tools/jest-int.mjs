#!/usr/bin/env node
// A project's integration tier (its `test-int` script, run from the project's folder): the `*.int-spec.ts` files
// under src/, PLINK_INT_WORKERS at a time (2 by default), then the files whose header says `@run-alone`, one at
// a time with nothing beside them. Both runs happen even when the first fails; the exit code is the first failure.
//
// Why two at a time: an integration test spends most of its time waiting (for a queue, a retry, a timer, a
// spawned app), not computing; one file at a time left the 2 cores idle most of `npm test`. Why some run
// alone: they measure time or throughput under a load they make themselves (latency percentiles, a Redis outage
// under 200 submissions a second, retry schedules), and another file beside them would measure the machine.
// Each file has its own database and Redis prefix, so files never share state, only the machine.
//
// Extra arguments go to both jest runs (e.g. `--verbose`).

import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const JEST = [
  '--disable-warning=ExperimentalWarning',
  '--experimental-vm-modules',
  path.join(ROOT, 'node_modules/jest/bin/jest.js'),
];
/** How a file says it must run alone: in its first lines, usually its describe's doc comment. */
const ALONE = /@run-alone\b/;
const HEADER_CHARS = 4000;

function intSpecs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : intSpecs(full);
    return entry.name.endsWith('.int-spec.ts') ? [full] : [];
  });
}

function jest(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...JEST, ...args], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const workers = Math.max(1, Number(process.env.PLINK_INT_WORKERS ?? 2) || 1);
const extra = process.argv.slice(2);
const files = intSpecs(path.join(process.cwd(), 'src')).sort();
const alone = files.filter((file) => ALONE.test(readFileSync(file, 'utf8').slice(0, HEADER_CHARS)));
const together = files.filter((file) => !alone.includes(file));

let failure = 0;
if (together.length > 0) {
  const mode = workers > 1 && together.length > 1 ? [`--maxWorkers=${workers}`] : ['--runInBand'];
  failure = await jest([...mode, ...extra, '--runTestsByPath', ...together]);
}
if (alone.length > 0) {
  console.log(`\n[test-int] alone, one at a time: ${alone.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  const code = await jest(['--runInBand', ...extra, '--runTestsByPath', ...alone]);
  failure ||= code;
}
if (files.length === 0) console.log('[test-int] no integration tests');
process.exit(failure);
