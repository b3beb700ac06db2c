// The HTTP load generator the bench scripts share. The load runs on the same cores as what it measures, so its
// own CPU takes from the gateway: autocannon (Node) needs about 0.7 of a core to drive one gateway process at
// full speed here, wrk (C, Debian's `wrk` package) a fraction of that. wrk is used when it is installed;
// BENCH_LOAD=autocannon forces autocannon (the figures of earlier runs were taken with it). Both give the
// same summary: requests per second, latency p50/p99 in ms, successes (2xx) and errors.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const WANTED = process.env.BENCH_LOAD ?? 'wrk';
if (WANTED !== 'wrk' && WANTED !== 'autocannon') throw new Error(`BENCH_LOAD must be wrk or autocannon, not "${WANTED}"`);
const hasWrk = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/** The tool this run uses ('wrk' or 'autocannon'), and why when it is not the one asked for. */
export const loadTool = WANTED === 'wrk' && !hasWrk ? 'autocannon' : WANTED;
export const loadToolNote = WANTED === 'wrk' && !hasWrk ? 'wrk is not installed (apt-get install -y wrk); autocannon drives the load' : '';

/**
 * @typedef {object} LoadOptions
 * @property {string} url
 * @property {number} connections
 * @property {number} duration seconds
 * @property {string} [method] GET unless given
 * @property {Record<string, string>} [headers]
 * @property {string} [body] `[<id>]` in it is replaced by an id unique to each request (across runs too)
 */

/**
 * @typedef {object} LoadResult
 * @property {number} rps requests per second (all answers)
 * @property {number} p50 latency, ms
 * @property {number} p99 latency, ms
 * @property {number} ok answers with a 2xx status
 * @property {number} errors non-2xx answers, timeouts and connection errors
 * @property {number} cpuSeconds the CPU the load generator itself used
 */

/** Runs the load for `duration` seconds. @param {LoadOptions} opts @returns {Promise<LoadResult>} */
export function load(opts) {
  return loadTool === 'wrk' ? wrkLoad(opts) : autocannonLoad(opts);
}

function autocannonLoad({ url, connections, duration, method = 'GET', headers = {}, body }) {
  const usage = process.cpuUsage();
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration, pipelining: 1, method, headers, ...(body ? { body, idReplacement: body.includes('[<id>]') } : {}) },
      (err, r) => {
        if (err) return reject(err);
        const cpu = process.cpuUsage(usage);
        resolve({
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          ok: r['2xx'],
          errors: r.errors + r.timeouts + (r.non2xx ?? 0),
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
        });
      },
    );
  });
}

const lua = (value) => JSON.stringify(value); // a JSON string is a valid Lua string literal for these values

/** wrk, one thread, with a Lua script for the method, headers, unique bodies and a JSON summary. */
function wrkLoad({ url, connections, duration, method = 'GET', headers = {}, body }) {
  const dir = mkdtempSync(join(tmpdir(), 'plink-wrk-'));
  const script = join(dir, 'load.lua');
  const run = randomBytes(4).toString('hex');
  writeFileSync(
    script,
    `wrk.method = ${lua(method)}
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`)
  .join('\n')}
local template = ${body === undefined ? 'nil' : lua(body)}
local counter = 0
request = function()
  if template == nil then return wrk.format() end
  counter = counter + 1
  return wrk.format(nil, nil, nil, (template:gsub("%[<id>%]", ${lua(run)} .. "-" .. counter)))
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`,
  );
  // bash's \`times\` gives the CPU its child (wrk) used, to the end.
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', script, url].map((a) => `'${a}'`).join(' ');
  const child = spawn('bash', ['-c', `wrk ${args}; code=$?; times; exit $code`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const line = out.split('\n').find((l) => l.startsWith('WRK '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}):\n${out}`));
      const s = JSON.parse(line.slice(4));
      // `times`: the shell's user and system time, then its children's.
      const childTimes = out.trim().split('\n').at(-1).split(/\s+/).map((t) => {
        const parts = /^(\d+)m([\d.]+)s$/.exec(t);
        return parts ? Number(parts[1]) * 60 + Number(parts[2]) : 0;
      });
      const errors = s.connect + s.read + s.write + s.timeout + s.status;
      resolve({
        rps: s.requests / (s.us / 1e6),
        p50: s.p50 / 1000,
        p99: s.p99 / 1000,
        ok: s.requests - s.status,
        errors,
        cpuSeconds: childTimes[0] + childTimes[1],
      });
    });
    child.on('error', reject);
  });
}
