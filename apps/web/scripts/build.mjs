// `npm run build` of the SPA:
//  1. the browser bundle (vite build → dist/);
//  2. the public screens prerendered as HTML: a server build of src/prerender/entry-server.tsx renders
//     the home, terms and privacy pages with the app's own components into dist/prerendered/*.html
//     (the built index.html with the markup inside #root), which the gateway answers to signed-out visitors;
//  3. brotli and gzip copies of every text file of dist/ (scripts/precompress.mjs);
//  4. the first-load JavaScript of the signed-in dashboard, gzipped, printed against its 150 KB budget.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIRST_LOAD_BUDGET_KB, firstLoadChunks, firstLoadKb, firstLoadReport } from './first-load.mjs';
import { precompress } from './precompress.mjs';

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
const manifest = JSON.parse(await readFile(join(DIST, '.vite', 'manifest.json'), 'utf8'));
/** Each prerendered screen's lazy chunk: the page names it (and what it imports) for the browser to fetch at once. */
const SCREEN_MODULES = { '/': 'src/features/home/index.ts', '/terms': 'src/features/legal/index.tsx', '/privacy': 'src/features/legal/index.tsx' };
const entryFiles = new Set(chunkFiles('index.html'));
function chunkFiles(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build manifest has no ${key}`);
  if (!seen.has(chunk.file)) {
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) chunkFiles(imported, seen);
  }
  return [...seen];
}
// No font preload: measured, it delays the largest paint on a slow phone (the text shows in a fallback
// font first and swaps, font-display: swap).
const preloads = (path) =>
  chunkFiles(SCREEN_MODULES[path])
    .filter((file) => !entryFiles.has(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty <div id="root"></div>');
await mkdir(join(DIST, 'prerendered'), { recursive: true });
for (const path of PRERENDERED_PATHS) {
  const markup = await renderPath(path);
  const name = path === '/' ? 'index' : path.slice(1);
  const html = shell
    .replace('</head>', `  ${preloads(path)}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
  await writeFile(join(DIST, 'prerendered', `${name}.html`), html);
  console.log(`prerendered ${path} → dist/prerendered/${name}.html (${(markup.length / 1024).toFixed(1)} KiB of markup)`);
}
await rm(SSR_OUT, { recursive: true, force: true });

console.log(`precompressed ${await precompress(DIST)} files (brotli, gzip)`);
const report = firstLoadReport(DIST);
console.log(report);
// Kept beside the build manifest for `npm run lighthouse`, which prints it with the scores.
await writeFile(
  join(DIST, '.vite', 'first-load.json'),
  JSON.stringify({ kb: Number(firstLoadKb(DIST).toFixed(1)), budgetKb: FIRST_LOAD_BUDGET_KB, chunks: firstLoadChunks(DIST), report }, null, 2),
);
