// The embed script (src/embed/embed.ts) as its own tiny bundle: one minified IIFE, no dependencies, written to
// dist/embed/embed.js, which the gateway serves at /embed.js and /embed/{hash}.js. Fails the build when it
// grows past its budget of 5 KB gzipped.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Bytes, gzipped (level 9, as a server would send it at best). Kept equal to EMBED_GZIP_BUDGET_BYTES in contracts. */
const BUDGET = 5_120;

export async function buildEmbed() {
  const outDir = join(WEB, 'dist', 'embed');
  await build({
    configFile: false,
    root: WEB,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2019',
      minify: true,
      copyPublicDir: false,
      lib: { entry: join(WEB, 'src/embed/embed.ts'), formats: ['iife'], name: 'plinkEmbed', fileName: () => 'embed.js' },
    },
  });
  const bytes = await readFile(join(outDir, 'embed.js'));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`embed.js: ${bytes.length} bytes, ${gzipped} gzipped (budget ${BUDGET})`);
  if (gzipped > BUDGET) throw new Error(`embed.js is ${gzipped} bytes gzipped, over its budget of ${BUDGET}`);
}
