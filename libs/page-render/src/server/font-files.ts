import { dirname, join } from 'node:path';
import { webFontFiles } from '../components/fonts';

/** Node-only: where the gateway finds the web font files it serves at `/fonts/{file}`. */

let files: Map<string, string> | undefined;
const packageDirs = new Map<string, string>();

/**
 * The absolute path of a web font file of the font choices (`inter-latin-400-normal.woff2`), or null for any
 * other name — so `/fonts/…` can never read anything but those files.
 */
export function resolveFontFile(file: string): string | null {
  files ??= webFontFiles();
  const pkg = files.get(file);
  if (!pkg) return null;
  let dir = packageDirs.get(pkg);
  if (!dir) {
    dir = dirname(require.resolve(`@fontsource/${pkg}/package.json`));
    packageDirs.set(pkg, dir);
  }
  return join(dir, 'files', file);
}
