import { join } from 'node:path';
import { z } from 'zod';
import { envSchema } from './config.schema';

/**
 * The configuration reference, docs/configuration.md and .env.example, made from the config schema: each
 * variable's description and default come from envSchema (its `meta`), so the files cannot drift from the
 * code. `npm run build` writes them (write-config-docs.ts); config-docs.spec.ts fails when the committed files
 * differ. Only the grouping, and the variables the apps do not read (npm start's, docker compose's), are here.
 */

/** The repository's root (this file runs from libs/platform/src/config or libs/platform/dist/config). */
export const REPO_ROOT = join(__dirname, '..', '..', '..');
export const CONFIGURATION_DOC_FILE = join(REPO_ROOT, 'docs', 'configuration.md');
export const ENV_EXAMPLE_FILE = join(REPO_ROOT, '.env.example');

/** One variable as both files show it. */
interface Variable {
  name: string;
  /** The value an unset variable amounts to, as it would be written in the environment. */
  value?: string;
  /** What an unset variable means when that is no single value. */
  unset?: string;
  /** Nothing works without it. */
  required?: boolean;
  description: string;
}

interface Section {
  title: string;
  note?: string;
  variables: Variable[];
}

/** The apps' variables by subject, in the order the files list them; every variable of the schema, once. */
export const CONFIG_GROUPS: Array<{ title: string; note?: string; variables: string[] }> = [
  { title: 'HTTP', variables: ['PORT', 'HOST', 'APP_ORIGIN', 'PUBLIC_ORIGIN', 'TRUST_PROXY', 'WEB_DIST_DIR'] },
  { title: 'Environment and logs', variables: ['NODE_ENV', 'LOG_LEVEL', 'PLINK_DEMO_SEED'] },
  { title: 'PostgreSQL', variables: ['DATABASE_URL', 'DATABASE_POOL_MAX', 'MIGRATE_ON_START'] },
  { title: 'Redis', variables: ['REDIS_URL', 'REDIS_PREFIX'] },
  { title: 'Sessions', variables: ['SESSION_SECRET'] },
  {
    title: 'Rate limits',
    note:
      'Counted per client address (as `TRUST_PROXY` decides it) in Redis, so every replica shares them. While Redis is unreachable the per-minute limits let requests through, and the others count in each process.',
    variables: ['AUTH_RATE_LIMIT_PER_MINUTE', 'LOGIN_FAILURES_PER_ADDRESS', 'REGISTRATIONS_PER_ADDRESS_PER_HOUR', 'LEAD_RATE_LIMIT_PER_MINUTE'],
  },
  {
    title: 'Under attack',
    note: 'Each process counts its sign-ups and refusals per page in memory and adds them up in the database once a second; a page is checked at most once every few seconds.',
    variables: ['LEAD_FLOOD_PER_HOUR', 'LEAD_REFUSED_PER_HOUR'],
  },
  { title: 'Lead evidence', variables: ['LEAD_EVIDENCE'] },
  { title: 'E-mail', variables: ['SMTP_URL', 'MAIL_FROM', 'MAIL_OUTBOX_DIR'] },
  {
    title: 'Bot shield',
    note: "Checks of a lead's e-mail domain, on pages that refuse throwaway addresses (every page unless its creator turns it off).",
    variables: ['EMAIL_MX_CHECK', 'DNS_SERVERS'],
  },
  {
    title: 'Uploads',
    note: 'Uploaded images are kept in a local folder, or in an S3-compatible store when `S3_ENDPOINT` is set.',
    variables: ['UPLOADS_DIR', 'S3_ENDPOINT', 'S3_PORT', 'S3_USE_SSL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'S3_REGION', 'S3_PUBLIC_URL', 'UPLOAD_ORPHAN_GRACE_HOURS'],
  },
  {
    title: 'Payments (Stripe)',
    note: 'Without `STRIPE_SECRET_KEY` there are no payments; Pro can still be granted with `npm run plink -- grant-pro`.',
    variables: ['STRIPE_SECRET_KEY', 'STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL'],
  },
  {
    title: 'Webhooks',
    note: "Pro pages' new leads sent to their owner's automation tool, by the notifications service.",
    variables: ['WEBHOOK_CONCURRENCY', 'WEBHOOK_ENDPOINT_CONCURRENCY', 'WEBHOOK_CONNECT_TIMEOUT_MS', 'WEBHOOK_RESPONSE_TIMEOUT_MS', 'WEBHOOK_YIELD_PRESSURE', 'WEBHOOK_YIELD_RATE', 'CPU_PRESSURE_FILE', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
  },
  { title: 'Operators and metrics', variables: ['OPERATOR_PASSWORD', 'METRICS_TOKEN'] },
  { title: 'Processes', variables: ['PLINK_WORKERS', 'HEALTH_PORT', 'WORKER_NICENESS', 'SHUTDOWN_GRACE_MS'] },
];

/** Variables of the launchers around the apps, which the apps themselves never read. */
const LAUNCHER_SECTIONS: Section[] = [
  {
    title: 'npm start only',
    note: 'Read by `npm start` (`tools/start.mjs`), not by the apps.',
    variables: [
      { name: 'EMBEDDED_PG_PORT', value: '5433', description: 'Port of the embedded PostgreSQL `npm start` runs when `DATABASE_URL` is unset; a free port is picked when it is busy.' },
      {
        name: 'PLINK_REDIS_PROBE_PORT',
        value: '6379',
        description: 'Port on 127.0.0.1 where `npm start` looks for Redis when `REDIS_URL` is unset, and starts `redis-server` if nothing answers.',
      },
      { name: 'PLINK_STOP_TIMEOUT_MS', value: '20000', description: 'Milliseconds the app gets to stop after Ctrl-C before `npm start` kills it.' },
      { name: 'PLINK_SKIP_BUILD', description: '`1` or `true`: skip the build step (`nx run-many -t build`).' },
      { name: 'PLINK_ENTRY', unset: '`apps/gateway/dist/main.js`', description: 'Script to run instead of the gateway (debugging, stand-ins).' },
    ],
  },
  {
    title: 'docker compose',
    note:
      'docker compose reads its settings from a `.env` file next to `docker-compose.yml` (a copy of `.env.example` to start from; see docs/self-hosting.md). Every setting of the apps reaches every app, except `DATABASE_URL`, `REDIS_URL`, `NODE_ENV`, `PORT`, `HOST`, `HEALTH_PORT` and `PLINK_WORKERS`, which the file sets, and `MAIL_OUTBOX_DIR`, `UPLOADS_DIR`, `WEB_DIST_DIR`, `STRIPE_API_URL`, `WEBHOOK_ALLOW_PRIVATE_NETWORKS` and `PLINK_DEMO_SEED`, which it does not pass. Caddy serves `APP_ORIGIN` and `PUBLIC_ORIGIN` as given: an `https://` origin gets an automatic certificate. Required there: `SESSION_SECRET`, `SMTP_URL` (`smtp://mailpit:1025` keeps every e-mail in the bundled catcher, on purpose), `S3_ACCESS_KEY` and `S3_SECRET_KEY` (also the bundled MinIO\'s user and password, 8+ characters) and `POSTGRES_PASSWORD`.',
    variables: [{ name: 'POSTGRES_PASSWORD', required: true, description: "Password of the compose file's PostgreSQL, which the apps' `DATABASE_URL` is made with." }],
  },
];

/** What the schema says about one variable: its description (required), its default, what unset means. */
function describeVariable(name: string, schema: z.ZodType): Variable {
  const meta = z.globalRegistry.get(schema) ?? {};
  const description = typeof meta.description === 'string' ? meta.description.trim() : '';
  if (!description) throw new Error(`${name} has no description: give it .meta({ description }) in config.schema.ts`);
  // The default is what the schema makes of an unset variable (transforms included), as it would be written;
  // a variable the schema refuses to leave unset is required.
  const parsed = schema.safeParse(undefined);
  const value = parsed.success && parsed.data !== undefined ? String(parsed.data) : undefined;
  const unset = typeof meta.unset === 'string' ? meta.unset : undefined;
  if ((value !== undefined || !parsed.success) && unset !== undefined) {
    throw new Error(`${name} has a default or is required: its meta must not say what unset means`);
  }
  return { name, value, unset, required: !parsed.success, description };
}

/** Every section of the reference; throws when a variable of the schema is undocumented or in no group, or twice. */
export function configSections(schema: z.ZodObject = envSchema, groups = CONFIG_GROUPS): Section[] {
  const shape = schema.shape as Record<string, z.ZodType>;
  const listed = groups.flatMap((g) => g.variables);
  const unknown = listed.filter((name) => !(name in shape));
  const twice = listed.filter((name, i) => listed.indexOf(name) !== i);
  const missing = Object.keys(shape).filter((name) => !listed.includes(name));
  if (unknown.length || twice.length || missing.length) {
    throw new Error(
      `CONFIG_GROUPS in config-docs.ts must list every variable of the schema once: ${[
        missing.length ? `missing ${missing.join(', ')}` : '',
        unknown.length ? `not in the schema ${unknown.join(', ')}` : '',
        twice.length ? `twice ${twice.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')}`,
    );
  }
  const apps = groups.map((g) => ({ title: g.title, note: g.note, variables: g.variables.map((name) => describeVariable(name, shape[name])) }));
  return [...apps, ...LAUNCHER_SECTIONS];
}

const GENERATED = 'Generated from libs/config/src/config.schema.ts (the descriptions are beside the variables there) by `npm run build`';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/configuration.md. */
export function renderConfigurationDoc(sections = configSections()): string {
  const out = [
    '# Configuration',
    '',
    `<!-- ${GENERATED}; do not edit this file. -->`,
    '',
    'The apps (the gateway, the five service apps and `npm run plink`) read the variables of every section but the',
    'last two from their environment, and check them all as they start: a value they cannot use stops them with one',
    'line per problem. An empty value counts as unset; the on/off settings take `true`/`false`, `1`/`0` or `yes`/`no`.',
    '`npm start` also reads a `.env` file at the repository root (what the shell sets wins);',
    '[`.env.example`](../.env.example) lists every variable, commented out, with its default. The last two sections',
    "are `npm start`'s own settings and docker compose's.",
  ];
  for (const section of sections) {
    out.push('', `## ${section.title}`, '');
    if (section.note) out.push(section.note, '');
    out.push('| Variable | Default | Description |', '|---|---|---|');
    for (const v of section.variables) {
      const shown = v.value !== undefined ? `\`${v.value}\`` : v.required ? 'required' : (v.unset ?? '—');
      out.push(`| \`${v.name}\` | ${cell(shown)} | ${cell(v.description)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

const WIDTH = 114;

/** `text` as `# ` comment lines of at most WIDTH characters (a longer word, or `code`, stays whole). */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** A value as a .env line writes it: quoted when a space, quote or `#` would otherwise change its meaning. */
function envValue(value: string): string {
  return /[\s"'#]/.test(value) ? `"${value.replace(/"/g, '\\"')}"` : value;
}

/** .env.example: every variable commented out with its default, so a copy changes nothing until edited. */
export function renderEnvExample(sections = configSections()): string {
  const out = [
    '# Plink configuration: every variable, commented out, with its default; nothing here is required for `npm start`.',
    '# Copy to .env and uncomment what you change: `npm start` reads .env (values set in the shell win; an empty value',
    '# means "unset", i.e. the default). Copied as it is, it changes nothing. The apps themselves read only their',
    '# process environment, so when you run an app directly (npm run start:gateway, docker) pass the variables in',
    '# its environment. The same in a table: docs/configuration.md.',
    ...comment(`${GENERATED}.`),
  ];
  for (const section of sections) {
    out.push('', `# --- ${section.title} `.padEnd(WIDTH, '-'));
    if (section.note) out.push(...comment(section.note), '#');
    for (const v of section.variables) {
      out.push(...comment(v.unset !== undefined ? `${v.description} Unset: ${v.unset}.` : v.description));
      out.push(`# ${v.name}=${v.value === undefined ? '' : envValue(v.value)}`);
    }
  }
  return `${out.join('\n')}\n`;
}
