// `npm run lighthouse`: Lighthouse (from npm, with Debian's Chromium) on the home page and a public landing
// page, with the mobile and the desktop presets, against the built gateway on a throw-away database. Prints
// the four category scores beside their targets, the main metrics (CLS among them) and the dashboard's
// first-load JavaScript.
// A benchmark, not a gate: it exits 0 whatever the scores (1 only when it cannot measure). Scores move
// with the machine's load; the load average is printed with them.
// It also opens /dashboard as a signed-in creator in Chromium and adds up the JavaScript fetched before the
// list of pages appeared (gzip -9 of each file, as the build's own figure).
// Environment: CHROME_PATH (/usr/bin/chromium), LIGHTHOUSE_RUNS (1: the median performance run of N is kept),
// WEB_DIST_DIR (the SPA build to serve, apps/web/dist by default: compare two builds in the same minutes).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import pg from 'pg';
import { chromium } from 'playwright-core';
import testing from '@plink/testing';
import { json, waitForHealth } from './harness.mjs';

const { createTestDatabase, deleteRedisPrefix, freePort, testRedisUrl, uniqueRedisPrefix } = testing;
const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const WEB_DIST = process.env.WEB_DIST_DIR ? resolve(process.env.WEB_DIST_DIR) : join(ROOT, 'apps/web/dist');
/** The budget for the signed-in dashboard's first-load JavaScript, gzipped. */
const FIRST_LOAD_BUDGET_KB = 150;

/** The targets: the home page on a phone, and the public landing page (already at 100). */
const TARGETS = {
  home: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
  'landing page': { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 },
};

/** What a failed audit found, shortly (the console's errors, the elements with too little contrast…). */
function detail(audit) {
  const items = audit.details?.items ?? [];
  const said = items
    .slice(0, 3)
    .map((item) => item.description ?? item.node?.snippet ?? item.url ?? item.source ?? '')
    .filter(Boolean)
    .map((text) => String(text).replace(/\s+/g, ' ').slice(0, 140));
  return said.length ? ` (${said.join(' | ')}${items.length > 3 ? ` | +${items.length - 3}` : ''})` : '';
}

/** The first element snippets found in an audit's details (the LCP element of the LCP breakdown). */
function snippets(value, found = [], most = 1) {
  if (found.length >= most || value === null || typeof value !== 'object') return found;
  if (typeof value.snippet === 'string') found.push(value.snippet.replace(/\s+/g, ' ').slice(0, 120));
  for (const child of Object.values(value)) snippets(child, found, most);
  return found;
}

/** What Lighthouse blames for the performance score: the LCP element and its phases, render-blocking files. */
function blame(audits) {
  const lcp = audits['lcp-breakdown-insight'];
  const phases = (lcp?.details?.items?.[0]?.items ?? [])
    .filter((item) => typeof item.duration === 'number')
    .map((item) => `${item.label ?? item.subpart} ${Math.round(item.duration)} ms`);
  const blocking = (audits['render-blocking-insight']?.details?.items ?? [])
    .filter((item) => item.url)
    .map((item) => `${new URL(item.url).pathname}${item.wastedMs ? ` (${Math.round(item.wastedMs)} ms)` : ''}`);
  return [
    `LCP element ${snippets(lcp?.details).join('') || '?'}${phases.length ? `: ${phases.join(', ')}` : ''}`,
    `FCP ${audits['first-contentful-paint'].displayValue}, speed index ${audits['speed-index'].displayValue}`,
    ...(blocking.length ? [`render-blocking: ${blocking.join(', ')}`] : []),
  ];
}

/** The elements that moved, when the page moved more than a little (printed whatever the score). */
function shifts(audits) {
  if (audits['cumulative-layout-shift'].numericValue <= 0.01) return [];
  return [`layout shifts: ${snippets(audits['cls-culprits-insight']?.details, [], 3).join(' | ') || '?'}`];
}

/** One Lighthouse run: the four scores (0–100), the main metrics and the bytes transferred. */
async function audit(url, port, preset) {
  const flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  const { categories, audits } = result.lhr;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c].score ?? 0) * 100)]));
  const failed = CATEGORIES.flatMap((c) =>
    categories[c].auditRefs
      .filter((ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score < 1 && c !== 'performance')
      .map((ref) => `${c}: ${ref.id}${detail(audits[ref.id])}`),
  );
  return {
    scores,
    failed,
    lcp: audits['largest-contentful-paint'].displayValue,
    tbt: audits['total-blocking-time'].displayValue,
    // Not a timing: how far the layout moved while loading (a late web font, an image without a size), so it
    // means the same at any machine load.
    cls: audits['cumulative-layout-shift'].numericValue?.toFixed(3) ?? '?',
    kib: Math.round((audits['total-byte-weight'].numericValue ?? 0) / 1024),
    blame: blame(audits),
    shifts: shifts(audits),
  };
}

/**
 * The JavaScript a signed-in creator's browser fetches to show /dashboard: every script requested before the
 * first row of the pages table was in the document (its first paint follows), and, apart, what came after
 * (code the dashboard loads once the list shows). Sizes are gzip -9 of each file.
 */
/* global document, window, MutationObserver -- the functions given to addInitScript and evaluate run in the page */
async function dashboardFirstLoad(origin, cookie) {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const separator = cookie.indexOf('=');
    await context.addCookies([{ name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: origin }]);
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('table tbody tr')) return;
        window.__listShownAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await page.goto(`${origin}/dashboard`);
    await page.locator('table tbody tr').first().waitFor();
    await page.waitForLoadState('networkidle');
    const { shownAt, scripts } = await page.evaluate(() => ({
      shownAt: window.__listShownAt,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, start: entry.startTime })),
    }));
    const sized = await Promise.all(
      scripts.map(async (script) => {
        const body = Buffer.from(await (await fetch(script.url)).arrayBuffer());
        return { ...script, kb: gzipSync(body, { level: 9 }).length / 1000 };
      }),
    );
    const sum = (list) => list.reduce((total, script) => total + script.kb, 0);
    const before = sized.filter((script) => script.start <= shownAt);
    const after = sized.filter((script) => script.start > shownAt);
    return { kb: sum(before), files: before.length, afterKb: sum(after), afterFiles: after.length, sized, shownAt };
  } finally {
    await browser.close();
  }
}

async function main() {
  const database = await createTestDatabase();
  const redisPrefix = uniqueRedisPrefix();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const work = mkdtempSync(join(tmpdir(), 'plink-lighthouse-'));
  const output = [];
  const gateway = spawn(join(ROOT, 'node_modules/.bin/node'), [join(ROOT, 'apps/gateway/dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: origin,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: redisPrefix,
      SESSION_SECRET: 'lighthouse-session-secret-0123456789abcdef01234',
      PLINK_WORKERS: 'none',
      MAIL_OUTBOX_DIR: join(work, 'mail'),
      UPLOADS_DIR: join(work, 'uploads'),
      WEB_DIST_DIR: WEB_DIST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d) => output.push(String(d)) > 200 && output.shift();
  gateway.stdout.on('data', keep);
  gateway.stderr.on('data', keep);
  let chrome;
  try {
    await waitForHealth(origin, gateway, output);
    const who = { username: 'lighthouse', email: 'creator@lighthouse.test', password: 'lighthouse-password' };
    const registered = await json('POST', `${origin}/api/register`, who);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    await db.end();
    const { cookie } = await json('POST', `${origin}/api/login`, { email: who.email, password: who.password });
    await json(
      'POST',
      `${origin}/api/pages`,
      {
        slug: 'lighthouse-guide',
        title: 'The Free Photography Cheat Sheet',
        subtext: '<p>Master exposure, composition and light with a one-page guide for every shoot.</p>',
        authorName: 'Ana Lopes',
        buttonText: 'Send me the guide',
        fileUrl: 'https://files.example.com/guide.pdf',
        metaDescription: 'A one-page photography cheat sheet: exposure, composition and light for every shoot, free.',
      },
      cookie,
    );

    const firstLoad = await dashboardFirstLoad(origin, cookie);
    if (process.env.FIRST_LOAD_FILES) {
      console.log(`the list's first row was in the document at ${Math.round(firstLoad.shownAt)} ms`);
      for (const f of firstLoad.sized) console.log(`  ${String(Math.round(f.start)).padStart(6)} ms  ${f.kb.toFixed(1).padStart(6)} KB  ${new URL(f.url).pathname}`);
    }

    chrome = await chromeLauncher.launch({
      chromePath: CHROME,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    const pages = { home: `${origin}/`, 'landing page': `${origin}/lighthouse-guide` };
    const rows = [];
    for (const [name, url] of Object.entries(pages)) {
      for (const preset of ['mobile', 'desktop']) {
        const runs = [];
        for (let i = 0; i < RUNS; i += 1) runs.push(await audit(url, chrome.port, preset));
        runs.sort((a, b) => a.scores.performance - b.scores.performance);
        rows.push({ name, preset, ...runs[Math.floor(runs.length / 2)] });
      }
    }

    const load = loadavg().map((n) => n.toFixed(1)).join(' ');
    console.log(`\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ${CHROME}, load average ${load}, median of ${RUNS} run(s)\n`);
    console.log('page          preset   perf  a11y  best  seo   LCP      TBT       CLS    KiB   targets');
    for (const r of rows) {
      const target = TARGETS[r.name];
      const met = CATEGORIES.every((c) => r.scores[c] >= target[c]);
      const cells = CATEGORIES.map((c) => String(r.scores[c]).padEnd(6)).join('');
      const wanted = CATEGORIES.map((c) => target[c]).join('/');
      console.log(`${r.name.padEnd(14)}${r.preset.padEnd(9)}${cells}${String(r.lcp).padEnd(9)}${String(r.tbt).padEnd(10)}${r.cls.padEnd(7)}${String(r.kib).padEnd(6)}${wanted} ${met ? 'met' : 'NOT met'}`);
      for (const f of r.failed) console.log(`              ${r.preset.padEnd(9)}fails ${f}`);
      if (r.scores.performance < target.performance) for (const b of r.blame) console.log(`              ${r.preset.padEnd(9)}${b}`);
      for (const shift of r.shifts) console.log(`              ${r.preset.padEnd(9)}${shift}`);
    }
    const verdict = firstLoad.kb <= FIRST_LOAD_BUDGET_KB ? 'within' : 'OVER';
    console.log(
      `\nfirst-load JS of the signed-in dashboard, measured in Chromium: ${firstLoad.kb.toFixed(1)} KB gzip in ` +
        `${firstLoad.files} files before the list showed, ${verdict} the ${FIRST_LOAD_BUDGET_KB} KB budget; ` +
        `${firstLoad.afterKb.toFixed(1)} KB in ${firstLoad.afterFiles} more files once it showed`,
    );
    // Written by the web build (apps/web/scripts/build.mjs).
    const built = join(WEB_DIST, '.vite/first-load.json');
    console.log(existsSync(built) ? `the build's figure: ${JSON.parse(readFileSync(built, 'utf8')).report}` : 'first-load JS: run `npm run build` first');
  } finally {
    await chrome?.kill();
    gateway.kill('SIGTERM');
    await new Promise((r) => (gateway.exitCode !== null ? r() : gateway.once('exit', r)));
    await deleteRedisPrefix(redisPrefix).catch(() => {});
    await database.drop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
