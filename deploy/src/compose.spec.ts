import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from '@plink/storage';
import { envSchema, loadConfig, SMTP_REQUIRED } from '@plink/config';
import { parse } from 'yaml';

/**
 * docker-compose.yml read as a self-hoster uses it: a .env next to it, rendered by `docker-compose config` (the
 * same interpolation `docker compose up` does), then checked for what a public install needs. No Docker engine
 * is needed; the proxy's start command runs here with a stand-in for Caddy.
 */
const ROOT = join(__dirname, '..', '..');
const APPS = ['gateway', 'identity', 'pages', 'leads', 'billing', 'notifications'];
const WORKERS = APPS.filter((app) => app !== 'gateway');

/** What every .env must hold (throw-away values for the check only). */
const REQUIRED: Record<string, string> = {
  SESSION_SECRET: randomBytes(48).toString('base64url'),
  POSTGRES_PASSWORD: 'compose-check',
  S3_ACCESS_KEY: 'compose-check',
  S3_SECRET_KEY: 'compose-check-secret',
  SMTP_URL: 'smtp://mailer:pass@relay.example:587',
};

/** Settings of the apps that compose does not take from .env, each with the reason. */
const FIXED_BY_COMPOSE = ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'HEALTH_PORT', 'PLINK_WORKERS'];
const NOT_PASSED: Record<string, string> = {
  MAIL_OUTBOX_DIR: 'compose requires SMTP_URL; a folder inside a container reaches nobody',
  UPLOADS_DIR: 'compose stores uploads in S3 (the bundled MinIO or another)',
  WEB_DIST_DIR: 'the image serves its own built SPA',
  STRIPE_API_URL: 'a Stripe stand-in for tests',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'would let webhooks reach the compose network (PostgreSQL, Redis, MinIO)',
  PLINK_DEMO_SEED: 'the demo creator is for development databases; production refuses it',
};
/** Settings one kind of app does not read. */
const UNREAD: Record<string, string[]> = { gateway: ['HEALTH_PORT'], worker: ['PORT', 'HOST', 'PLINK_WORKERS'] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Service = { environment?: Record<string, string>; entrypoint?: string[]; command?: string[] };
type Rendered = { services: Record<string, Service> };

function render(dotenv: Record<string, string>): Rendered {
  const dir = mkdtempSync(join(tmpdir(), 'plink-compose-'));
  try {
    const envFile = join(dir, '.env');
    writeFileSync(envFile, Object.entries(dotenv).map(([k, v]) => `${k}=${v}\n`).join(''));
    // Only PATH from this shell: a variable set here would win over the .env under test.
    const out = execFileSync('docker-compose', ['--project-directory', ROOT, '-f', join(ROOT, 'docker-compose.yml'), '--env-file', envFile, 'config'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return parse(out) as Rendered;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('docker-compose is needed to render docker-compose.yml (Debian: apt-get install docker-compose)', { cause: err });
    throw new Error(`docker-compose config failed: ${e.stderr ?? e.message}`, { cause: err });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const envOf = (rendered: Rendered, service: string) => rendered.services[service].environment ?? {};
/** Every variable the apps read: the keys of the schema they validate their environment with. */
const appSettings = Object.keys((envSchema as Loose).shape as object);

/**
 * The site addresses Caddy serves: its start command is run as compose would run it (with `caddy` a stand-in
 * that prints the environment it got), then the Caddyfile's site blocks are read with that environment.
 */
function caddySites(rendered: Rendered): { addresses: string[]; body: string }[] {
  const caddy = rendered.services.caddy;
  const dir = mkdtempSync(join(tmpdir(), 'plink-caddy-'));
  try {
    writeFileSync(join(dir, 'caddy'), '#!/bin/sh\n[ "$1" = run ] || exit 3\nexec env\n');
    chmodSync(join(dir, 'caddy'), 0o755);
    // The image's own command unless compose sets one; `docker-compose config` prints `$$` for the `$` it passes.
    const command = [...(caddy.entrypoint ?? []), ...(caddy.command ?? (caddy.entrypoint ? [] : ['caddy', 'run', '--config', '/etc/caddy/Caddyfile', '--adapter', 'caddyfile']))];
    const [program, ...args] = command.map((part) => part.replaceAll('$$', '$'));
    const printed = execFileSync(program, args, { encoding: 'utf8', env: { ...caddy.environment, PATH: `${dir}:${process.env.PATH}` } });
    const env = Object.fromEntries(printed.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    // Caddy puts {$NAME} or {$NAME:default} in place before it reads the file.
    const caddyfile = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8')
      .replace(/\{\$(\w+)(?::([^}]*))?\}/g, (_all, name: string, fallback?: string) => env[name] ?? fallback ?? '')
      .replace(/(^|\s)#.*$/gm, '');
    const blocks: { addresses: string[]; body: string }[] = [];
    let depth = 0;
    let current: { addresses: string[]; body: string } | undefined;
    const lines = caddyfile.split('\n').map((l) => l.trim()).filter(Boolean);
    // One site may go without braces: its addresses on the first line, everything after it its body.
    if (lines.length > 0 && !lines[0].endsWith('{')) return [{ addresses: lines[0].split(/[\s,]+/), body: `${lines.slice(1).join('\n')}\n` }];
    for (const line of lines) {
      if (depth === 0 && line.endsWith('{') && !line.startsWith('(') && line !== '{') {
        current = { addresses: line.slice(0, -1).split(/[\s,]+/).filter(Boolean), body: '' };
        blocks.push(current);
      } else if (current && depth > 0) current.body += `${line}\n`;
      depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    }
    return blocks;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docker-compose.yml', () => {
  it('passes every setting the apps read to every app, or leaves it out for a stated reason', () => {
    const rendered = render(REQUIRED);
    for (const key of [...FIXED_BY_COMPOSE, ...Object.keys(NOT_PASSED)]) expect({ key, known: appSettings.includes(key) }).toEqual({ key, known: true });
    for (const app of APPS) {
      const env = envOf(rendered, app);
      const unread = UNREAD[app === 'gateway' ? 'gateway' : 'worker'];
      const missing = appSettings.filter((key) => !(key in env) && !(key in NOT_PASSED) && !unread.includes(key));
      expect({ app, missing }).toEqual({ app, missing: [] });
      const leftOutButSet = Object.keys(NOT_PASSED).filter((key) => key in env);
      expect({ app, leftOutButSet }).toEqual({ app, leftOutButSet: [] });
    }
  });

  it('takes each setting from .env: a value put there reaches every app', () => {
    const fromDotenv = appSettings.filter((key) => !FIXED_BY_COMPOSE.includes(key) && !(key in NOT_PASSED));
    const dotenv = { ...REQUIRED, ...Object.fromEntries(fromDotenv.filter((key) => !(key in REQUIRED)).map((key) => [key, `from-dotenv-${key}`])) };
    const rendered = render(dotenv);
    for (const app of APPS) {
      const env = envOf(rendered, app);
      const ignored = fromDotenv.filter((key) => env[key] !== dotenv[key]);
      expect({ app, ignored }).toEqual({ app, ignored: [] });
    }
    // The fixed ones: production, the bundled servers, one port per app.
    expect(envOf(rendered, 'gateway')).toMatchObject({ NODE_ENV: 'production', PLINK_WORKERS: 'none', PORT: '3000' });
    expect(new Set(WORKERS.map((app) => envOf(rendered, app).HEALTH_PORT)).size).toBe(WORKERS.length);
  });

  it('stops without each required setting and names it; SMTP_URL may name the bundled catcher on purpose', () => {
    for (const key of Object.keys(REQUIRED)) {
      const { [key]: _left, ...rest } = REQUIRED;
      expect(() => render(rest)).toThrow(new RegExp(`Set ${key} in \\.env`));
    }
    const catcher = render({ ...REQUIRED, SMTP_URL: 'smtp://mailpit:1025' });
    expect(envOf(catcher, 'notifications').SMTP_URL).toBe('smtp://mailpit:1025');
  }, 90_000);

  it('gives the apps an environment they start with in production, and one without SMTP_URL they refuse', () => {
    const rendered = render({ ...REQUIRED, APP_ORIGIN: 'https://app.example.com', PUBLIC_ORIGIN: 'https://pages.example.net' });
    for (const app of APPS) {
      const config = loadConfig(envOf(rendered, app));
      expect({ app, env: config.env, smtp: config.smtpUrl, publicOrigin: config.publicOrigin, trustProxy: Boolean(config.trustProxy) }).toEqual({
        app,
        env: 'production',
        smtp: REQUIRED.SMTP_URL,
        publicOrigin: 'https://pages.example.net',
        trustProxy: true,
      });
      const { SMTP_URL: _smtp, ...withoutSmtp } = envOf(rendered, app);
      expect(() => loadConfig(withoutSmtp)).toThrow(SMTP_REQUIRED);
    }
  });

  it('serves APP_ORIGIN and PUBLIC_ORIGIN through the proxy, each as a site of its own host', () => {
    const split = render({ ...REQUIRED, APP_ORIGIN: 'https://app.example.com/', PUBLIC_ORIGIN: 'https://pages.example.net' });
    const sites = caddySites(split);
    expect(sites.flatMap((s) => s.addresses).sort()).toEqual(['https://app.example.com', 'https://pages.example.net']);
    for (const site of sites) expect(site.body).toMatch(/^reverse_proxy \{\ndynamic a \{\nname gateway\nport 3000\n/m);
    // One host for both (PUBLIC_ORIGIN unset or the same): one site, named once.
    const same = render({ ...REQUIRED, APP_ORIGIN: 'https://plink.example.com', PUBLIC_ORIGIN: 'https://plink.example.com/' });
    expect(caddySites(same).flatMap((s) => s.addresses)).toEqual(['https://plink.example.com']);

    // Without either: the app on http://localhost:3000, published by the proxy on port 3000.
    const local = render(REQUIRED);
    expect(caddySites(local).flatMap((s) => s.addresses)).toEqual([loadConfig(envOf(local, 'gateway')).appOrigin]);
    expect(caddySites(local)[0].addresses).toEqual(['http://localhost:3000']);
    expect(local.services.caddy).toMatchObject({ ports: expect.arrayContaining([expect.objectContaining({ published: 3000, target: 3000 })]) });
  });

  it('links uploaded images where visitors can fetch them: through the proxy, or a public S3 URL when one is set', () => {
    const url = (dotenv: Record<string, string>) => createStorage(loadConfig(envOf(render({ ...REQUIRED, ...dotenv }), 'gateway'))).publicUrl('u1/logo-x.png');
    // A path on the page's own host, which the proxy sends to the gateway (it serves /uploads/… from S3).
    expect(url({})).toBe('/uploads/u1/logo-x.png');
    expect(url({ PUBLIC_ORIGIN: 'https://pages.example.net' })).toBe('/uploads/u1/logo-x.png');
    expect(url({ S3_PUBLIC_URL: 'https://cdn.example.com/plink-uploads' })).toBe('https://cdn.example.com/plink-uploads/u1/logo-x.png');
  }, 60_000);
});

describe('deploy/Dockerfile', () => {
  it('builds on an exact Node version: the one the tests run on', () => {
    const dockerfile = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8');
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
    const node = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;
    expect(image).toMatch(new RegExp(`^node:${node.replaceAll('.', '\\.')}-[a-z]+-slim(@sha256:[a-f0-9]{64})?$`));
    for (const from of dockerfile.match(/^FROM \S+/gm) ?? []) expect(from).toBe('FROM ${NODE_IMAGE}');
  });

  it('installs the production dependencies of every app the image runs, and of no other workspace app', () => {
    const dockerfile = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8');
    const installed = [...dockerfile.matchAll(/-w (apps\/[\w-]+)/g)].map((m) => m[1]).sort();
    // What compose and Kubernetes start (`node apps/<app>/dist/main.js`), and the image's own command.
    const started = new Set<string>();
    const manifests = readdirSync(join(ROOT, 'deploy/k8s'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
    for (const file of ['docker-compose.yml', 'deploy/Dockerfile', ...manifests.map((f) => `deploy/k8s/${f}`)]) {
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/"(apps\/[\w-]+)\/dist\/main\.js"/g)) started.add(m[1]);
    }
    expect(started.size).toBeGreaterThanOrEqual(7);
    expect(installed).toEqual([...started].sort());
  });
});
