#!/usr/bin/env node
// The integration tier: `*.int-spec.ts` files, PLINK_INT_WORKERS at a time (2 by default), then the files whose
// header says `@run-alone`, one at a time with nothing beside them. Both runs happen even when the first fails;
// the exit code is the first failure.
//
//   node ../../tools/jest-int.mjs [jest args]           a project's own files (its `test-int` script, run from its folder)
//   node tools/jest-int.mjs --workspace [jest args]     every project's files in one jest run (what `npm test` runs)
//
// Why the whole workspace in one run: with one project at a time, each project's slowest file held the tier while
// the other worker sat idle (the gateway's last minutes, a 2-minute file of leads), and every project paid jest's
// start. One run over all projects keeps the workers busy until the last file: the tier took 14.7 minutes one
// project at a time on the 2-core machine (docs/testing.md has the figures).
//
// Why two at a time: an integration test spends most of its time waiting (for a queue, a retry, a timer, a
// spawned app), not computing; one file at a time left the 2 cores idle. Why some run alone: they measure time
// or throughput under a load they make themselves (latency percentiles, a Redis outage under 200 submissions a
// second, retry schedules), and another file beside them would measure the machine.
// Each file has its own database and Redis prefix, so files never share state, only the machine.
//
// Extra arguments go to both jest runs (e.g. `--verbose`).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

/** The workspace's projects that have an integration tier (a `test-int` script), from the root's workspaces. */
function intProjects() {
  const { workspaces } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return workspaces
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(path.join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => path.join(ROOT, pattern.slice(0, -2), entry.name))
        : [path.join(ROOT, pattern)],
    )
    .filter((dir) => {
      const manifest = path.join(dir, 'package.json');
      return existsSync(manifest) && Boolean(JSON.parse(readFileSync(manifest, 'utf8')).scripts?.['test-int']);
    })
    .sort();
}

function jest(args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...JEST, ...args], { stdio: 'inherit', cwd });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const workers = Math.max(1, Number(process.env.PLINK_INT_WORKERS ?? 2) || 1);
const workspace = process.argv.includes('--workspace');
const extra = process.argv.slice(2).filter((arg) => arg !== '--workspace');
const projects = workspace ? intProjects() : [process.cwd()];
const cwd = workspace ? ROOT : process.cwd();
// In one run over several projects each file is matched to its project (its jest config: displayName, timeout).
const projectArgs = workspace ? ['--projects', ...projects.map((dir) => path.relative(ROOT, dir))] : [];
const files = projects.flatMap((dir) => (existsSync(path.join(dir, 'src')) ? intSpecs(path.join(dir, 'src')) : [])).sort();
const alone = files.filter((file) => ALONE.test(readFileSync(file, 'utf8').slice(0, HEADER_CHARS)));
const together = files.filter((file) => !alone.includes(file));
const shown = (file) => path.relative(cwd, file);

let failure = 0;
if (together.length > 0) {
  const mode = workers > 1 && together.length > 1 ? [`--maxWorkers=${workers}`] : ['--runInBand'];
  failure = await jest([...projectArgs, ...mode, ...extra, '--runTestsByPath', ...together.map(shown)], cwd);
}
if (alone.length > 0) {
  console.log(`\n[test-int] alone, one at a time: ${alone.map(shown).join(', ')}`);
  const code = await jest([...projectArgs, '--runInBand', ...extra, '--runTestsByPath', ...alone.map(shown)], cwd);
  failure ||= code;
}
if (files.length === 0) console.log('[test-int] no integration tests');
process.exit(failure);
