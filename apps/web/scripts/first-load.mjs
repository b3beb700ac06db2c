// The JavaScript a browser loads before the signed-in dashboard shows: the entry chunk, the chunks it
// imports, and the dashboard route's chunk with its imports (read from Vite's build manifest), gzipped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budget for the dashboard's first load (gzip). */
export const FIRST_LOAD_BUDGET_KB = 150;
const DASHBOARD_ENTRY = 'src/features/dashboard/components/DashboardPage.tsx';

export function firstLoadChunks(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  if (!manifest[DASHBOARD_ENTRY]) throw new Error(`the build manifest has no ${DASHBOARD_ENTRY} chunk`);
  visit(DASHBOARD_ENTRY);
  return [...files].filter((file) => file.endsWith('.js'));
}

/** Total gzipped kilobytes of the dashboard's first-load JavaScript. */
export function firstLoadKb(dist) {
  return firstLoadChunks(dist).reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0) / 1000;
}

export function firstLoadReport(dist) {
  const kb = firstLoadKb(dist);
  const verdict = kb <= FIRST_LOAD_BUDGET_KB ? 'within' : 'OVER';
  return `first-load JS of the signed-in dashboard: ${kb.toFixed(1)} KB gzip (${firstLoadChunks(dist).length} chunks), ${verdict} the ${FIRST_LOAD_BUDGET_KB} KB budget`;
}
