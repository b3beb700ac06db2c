// `npm run build` of the SPA:
//  1. the browser bundle (vite build → dist/);
//  2. the public screens prerendered as HTML: a server build of src/prerender/entry-server.tsx renders
//     the home, terms and privacy pages with the app's own components into dist/prerendered/*.html
//     (the built index.html with the markup inside #root), which the gateway answers to signed-out visitors;
//     each carries the CSS rules its markup uses inline (beasties), and its whole stylesheet no longer holds
//     back the first paint (media="print" until the app's script applies it);
//  2b. the embed script (scripts/build-embed.mjs: dist/embed/embed.js, at most 5 KB gzipped);
//  3. brotli and gzip copies of every text file of dist/ (scripts/precompress.mjs);
//  4. the first-load JavaScript of the signed-in dashboard, gzipped, printed against its 150 KB budget.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { FIRST_LOAD_BUDGET_KB, firstLoadChunks, firstLoadKb, firstLoadReport } from './first-load.mjs';
import { precompress } from './precompress.mjs';
import { buildEmbed } from './build-embed.mjs';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(WEB, 'dist');
const SSR_OUT = join(WEB, 'dist-ssr');
const vite = join(WEB, '../../node_modules/vite/bin/vite.js');

const run = (...args) => execFileSync(process.execPath, [vite, ...args], { cwd: WEB, stdio: 'inherit' });

run('build');
await rm(SSR_OUT, { recursive: true, force: true });
run('build', '--ssr', 'src/prerender/entry-server.tsx', '--outDir', 'dist-ssr', '--emptyOutDir', '--logLevel', 'warn');

const { PRERENDERED_PATHS, renderPath } = await import(pathToFileURL(join(SSR_OUT, 'entry-server.js')).href);
const shell = await readFile(join(DIST, 'index.html'), 'utf8');
// #root holds the brand loader (between the plink-boot comments) until the app runs; a prerendered screen takes its place.
const ROOT = /<div id="root">\s*<!--plink-boot[\s\S]*?<!--\/plink-boot-->\s*<\/div>/;
if (!ROOT.test(shell)) throw new Error('dist/index.html has no <div id="root"> with the plink-boot loader');
await mkdir(join(DIST, 'prerendered'), { recursive: true });
// The rules a prerendered screen's markup uses, inlined in its <head>. The full stylesheet stays where it was
// (its rules keep their place in the cascade, before the theme's variables that the markup carries) but as
// media="print", which the browser fetches without holding back the first paint; main.tsx applies it (the
// app's Content-Security-Policy refuses beasties' inline onload handler, so it is removed), and a <noscript>
// copy serves visitors without JavaScript. The shell's own <style> (the brand loader) is kept whole; Inter's
// @font-face rules come with the full sheet.
const beasties = new Beasties({ path: DIST, publicPath: '/', preload: 'media', reduceInlineStyles: false, inlineFonts: false, preloadFonts: false, logLevel: 'warn' });
const FULL_CSS_ONLOAD = /(<link rel="stylesheet"[^>]*?media="print")\s+onload="[^"]*"/g;
for (const path of PRERENDERED_PATHS) {
  const markup = await renderPath(path);
  const name = path === '/' ? 'index' : path.slice(1);
  // No modulepreload of the screen's chunk and no font preload: measured with Lighthouse's slow phone, both
  // compete with the stylesheet and delay the largest paint (2.7 s with the chunk preloads, 2.2 s without);
  // the chunk loads when the entry asks for it, and React hydrates the rest of the page meanwhile.
  const critical = await beasties.process(shell.replace(ROOT, () => `<div id="root">${markup}</div>`));
  const html = critical.replace(FULL_CSS_ONLOAD, '$1 data-plink-full-css');
  if (!html.includes('data-plink-full-css')) throw new Error(`prerendered ${path}: no deferred stylesheet to hand to the app`);
  await writeFile(join(DIST, 'prerendered', `${name}.html`), html);
  console.log(`prerendered ${path} → dist/prerendered/${name}.html (${(markup.length / 1024).toFixed(1)} KiB of markup)`);
}
await rm(SSR_OUT, { recursive: true, force: true });
await buildEmbed();

console.log(`precompressed ${await precompress(DIST)} files (brotli, gzip)`);
const report = firstLoadReport(DIST);
console.log(report);
// Kept beside the build manifest for `npm run lighthouse`, which prints it with the scores.
await writeFile(
  join(DIST, '.vite', 'first-load.json'),
  JSON.stringify({ kb: Number(firstLoadKb(DIST).toFixed(1)), budgetKb: FIRST_LOAD_BUDGET_KB, chunks: firstLoadChunks(DIST), report }, null, 2),
);
