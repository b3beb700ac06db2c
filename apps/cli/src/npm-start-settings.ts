import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where `npm start` (tools/start.mjs) writes, while it runs, the settings it gave the app (apps/cli/{src,dist} → repo root). */
const DEFAULT_RUNTIME_FILE = resolve(__dirname, '../../../.data/npm-start.json');

const KEYS = ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX'] as const;

type NpmStartSettings = Record<(typeof KEYS)[number], string>;

/**
 * The environment for a command run in a checkout, completed with the settings of the `npm start` running
 * there, so the command reaches the very database, Redis and key prefix that app uses. Only the launcher knows
 * them (the embedded PostgreSQL's password and port, a Redis it found or started, the prefix it derived from the
 * checkout), so it writes them down and this reads them rather than guessing again.
 *
 * Without DATABASE_URL, all three are taken. With a DATABASE_URL naming npm start's database (host, port and
 * name; the password aside), the Redis settings it lacks are taken, so the jobs go where that app's workers
 * look. Any other DATABASE_URL is another install's: nothing is added. A file left by an npm start that is no
 * longer running counts as none.
 */
export function withNpmStartSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const running = readRunning(env.PLINK_RUNTIME_FILE || DEFAULT_RUNTIME_FILE);
  if (!running) return env;
  const given = env.DATABASE_URL?.trim();
  if (given && !sameDatabase(given, running.DATABASE_URL)) return env;
  const out = { ...env };
  for (const key of KEYS) if (!out[key]?.trim()) out[key] = running[key];
  return out;
}

function readRunning(file: string): NpmStartSettings | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const record = parsed as Record<string, unknown>;
  if (!KEYS.every((key) => typeof record[key] === 'string' && record[key] !== '')) return null;
  if (typeof record.pid !== 'number' || !isAlive(record.pid)) return null;
  return record as NpmStartSettings;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sameDatabase(a: string, b: string): boolean {
  const where = (url: string) => {
    try {
      const u = new URL(url);
      return `${u.hostname.toLowerCase()}:${u.port || '5432'}${decodeURIComponent(u.pathname)}`;
    } catch {
      return url;
    }
  };
  return where(a) === where(b);
}
