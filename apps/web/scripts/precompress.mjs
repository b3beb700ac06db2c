// Brotli and gzip copies of the built SPA's files, written beside them at build time (`x.js` → `x.js.br`,
// `x.js.gz`), so the gateway serves them compressed without compressing on each request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; fonts and images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/i;
/** Smaller answers gain less than the encoding costs. */
export const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes `.br` and `.gz` beside each compressible file of `dir` at least MIN_BYTES long; returns how many. */
export async function precompress(dir) {
  let count = 0;
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const body = await readFile(path);
    if (body.length < MIN_BYTES) continue;
    const [br, gzipped] = await Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gz(body, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
    count += 1;
  }
  return count;
}
