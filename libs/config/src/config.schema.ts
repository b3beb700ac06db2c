import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** A resolver as Node's DNS takes it: an IP address, `ipv4:port`, or `[ipv6]:port`. */
function isDnsServer(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIP(bracketed[1]) === 6 && (bracketed[2] === undefined || Number(bracketed[2]) <= 65535);
  if (isIP(value) !== 0) return true;
  const withPort = /^([^:]+):(\d{1,5})$/.exec(value);
  return !!withPort && isIP(withPort[1]) === 4 && Number(withPort[2]) <= 65535;
}

/** `https://host[:port]` with nothing after it (a trailing slash is tolerated). */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === '/' && !url.search && !url.hash && !url.username;
}

/** proxy-addr's names for ranges (Fastify's trustProxy takes them like addresses). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const TRUST_PROXY_HELP =
  'set the number of proxies in front of Plink (e.g. TRUST_PROXY=1 behind one load balancer) or their addresses (e.g. TRUST_PROXY=10.0.0.0/8,192.168.1.5)';

/** An address, a CIDR range or one of proxy-addr's range names. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address, prefix, extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which X-Forwarded-* hops to believe. `false` (default): none, the client is the connection's
 * peer. A number: that many proxies in front (the client address is the one the outermost proxy saw). A list
 * of addresses or CIDR ranges: hops from those. `true` is refused: it would believe the left-most address
 * of X-Forwarded-For, which the client writes itself, so anyone could pick the address their rate limits
 * and /metrics access are judged by.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
    if (value === 'true' || value === 'yes') {
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY=${raw.trim()} would let any client choose its own address through X-Forwarded-For; ${TRUST_PROXY_HELP}` });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 20) return hops;
    }
    const entries = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
    const wrong = entries.filter((v) => !isProxyAddress(v));
    if (entries.length === 0 || wrong.length > 0) {
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY "${wrong.join(',') || raw.trim()}" is neither a number of proxies nor addresses; ${TRUST_PROXY_HELP}` });
      return z.NEVER;
    }
    return entries;
  });

const DEV_SESSION_SECRET = 'plink-development-session-secret-do-not-use-in-production';

/** Session secrets that appear in Plink's files and documentation: never accepted in production. */
const KNOWN_EXAMPLE_SECRETS = new Set([DEV_SESSION_SECRET, 'dev-only-insecure-session-secret-change-me', 'change-me', 'changeme']);

/** Why a production server refuses to start without SMTP_URL. */
export const SMTP_REQUIRED =
  'SMTP_URL must be set in production (smtp://user:pass@host:587): without it no e-mail leaves the server and nobody can verify an address; set MAIL_OUTBOX_DIR to keep mail in files on purpose';

/** Bits of entropy a production SESSION_SECRET must have at least (32 random bytes). */
const MIN_SECRET_BITS = 256;

/**
 * A generous estimate of a secret's entropy in bits: its length times log2 of the alphabet its character
 * classes span (hex only, lower case, upper case, digits, other printable); a secret made of fewer than 10
 * different characters counts only those (a long run of one character is not random). `openssl rand -base64 32`
 * and `openssl rand -hex 32` reach 256; a short sentence of words does not.
 */
export function estimateSecretBits(secret: string): number {
  if (secret.length === 0) return 0;
  let alphabet = 0;
  if (/^[0-9a-f]+$/i.test(secret)) alphabet = 16;
  else {
    if (/[a-z]/.test(secret)) alphabet += 26;
    if (/[A-Z]/.test(secret)) alphabet += 26;
    if (/[0-9]/.test(secret)) alphabet += 10;
    if (/[^A-Za-z0-9]/.test(secret)) alphabet += 33;
  }
  const distinct = new Set(secret).size;
  return secret.length * Math.log2(distinct < 10 ? Math.max(distinct, 1) : alphabet);
}

/** Why a SESSION_SECRET may not protect a production install, or null when it may. */
export function weakSecretReason(secret: string | undefined): string | null {
  if (!secret) return 'SESSION_SECRET must be set in production (e.g. `openssl rand -base64 48`)';
  if (KNOWN_EXAMPLE_SECRETS.has(secret) || /change[-_ ]?me|example|do[-_ ]?not[-_ ]?use/i.test(secret)) {
    return 'SESSION_SECRET is an example value from the documentation; set a random one (e.g. `openssl rand -base64 48`)';
  }
  if (estimateSecretBits(secret) < MIN_SECRET_BITS) {
    return 'SESSION_SECRET is too weak for production: it needs 32 random bytes (e.g. `openssl rand -base64 48`)';
  }
  return null;
}

/**
 * The whole environment of every Plink app, validated once at boot (ARCHITECTURE convention 7). Each variable
 * carries its description (`meta`): docs/configuration.md and .env.example are generated from them
 * (config-docs.ts), so a variable is documented where it is defined. `unset` says what an unset variable
 * means when the schema has no default value to show.
 */
export const envSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'])
      .default('development')
      .meta({
        description:
          '`development`: human-readable logs (pino-pretty); otherwise one JSON object per line. `production`: the apps refuse to start without a strong `SESSION_SECRET`, and without `SMTP_URL` unless `MAIL_OUTBOX_DIR` is set; the gateway answers `/metrics` on its own port only with `METRICS_TOKEN`. `test`: what the test suites set.',
      }),
    PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(3000)
      .meta({
        description:
          "TCP port of the gateway's HTTP server (the service apps listen only on `HEALTH_PORT`). `npm start` also puts it in its default `APP_ORIGIN`, `http://localhost:<PORT>`.",
      }),
    HOST: z
      .string()
      .default('0.0.0.0')
      .meta({ description: "Address the gateway binds to, its `HEALTH_PORT` too: `0.0.0.0` every IPv4 interface, `127.0.0.1` this machine only." }),
    APP_ORIGIN: z
      .url()
      .default('http://localhost:3000')
      .transform((v) => v.replace(/\/+$/, ''))
      .meta({
        description:
          "Where creators reach the app, `scheme://host[:port]`: the base of every link in Plink's e-mails, the only origin whose pages may make the API calls that change something (another's get 403; the lead forms also take `PUBLIC_ORIGIN`), and where app addresses asked on the landing pages' host are sent. `https://` also makes the session cookie `Secure` and turns on HSTS.",
      }),
    PUBLIC_ORIGIN: z
      .url()
      .refine((v) => isOrigin(v), { error: 'PUBLIC_ORIGIN must be an http(s) origin (scheme, host and port), without a path' })
      .optional()
      .transform((v) => (v === undefined ? undefined : new URL(v).origin))
      .meta({
        description:
          "The landing pages' own origin, without a path (e.g. `https://plink.page`), recommended in production: creators' custom code and tracking snippets then run there, never beside the app's session. Page addresses asked on `APP_ORIGIN` are redirected there, lead forms are accepted from it, and the links to a page in its webhooks point there. Without one, the pages carrying creators' code are sandboxed (no cookies, no storage).",
        unset: 'same as `APP_ORIGIN`',
      }),
    PLINK_DEMO_SEED: bool.optional().meta({
      description:
        "Gateway: on a database with no account yet, create the demo creator (a verified account with a sample page, its views and a few leads; `npm start` prints its sign-in beside the URL, see docs/operations.md) as it starts. `false`: never, e.g. for a development server others can reach, since the demo's password is in the documentation. Refused with `NODE_ENV=production`, where it never happens.",
      unset: '`true` with `NODE_ENV=development`, else `false`',
    }),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .meta({ description: 'The least severe log lines every app writes: `fatal` … `trace` (pino levels); `silent` writes none.' }),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
      .meta({
        description:
          'The PostgreSQL database, `postgres://user:password@host:5432/name` (or `postgresql://`). Required by every app and by `npm run plink`; `npm start` runs an embedded PostgreSQL (data in `.data/postgres`) when it is unset. The default `REDIS_PREFIX` is derived from it.',
      }),
    DATABASE_POOL_MAX: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .default(10)
      .meta({
        description:
          "The most connections one process opens to PostgreSQL (1–200). A lead export holds one while it downloads, and exports may take at most half of them; one more is answered 503.",
      }),
    MIGRATE_ON_START: bool.default(true).meta({
      description:
        '`true`: each app applies the pending migrations of the schemas it uses as it starts (under a PostgreSQL advisory lock, so replicas may start together). `false`: it refuses to start while one is pending, naming it; `npm run plink -- migrate` applies them first, as a cluster\'s migration job does.',
    }),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
      .default('redis://127.0.0.1:6379')
      .meta({
        description:
          "Redis for the job queues (BullMQ), sessions, rate limits and view counts: `redis://[:password@]host:port`, or `rediss://` over TLS. `npm start`, when it is unset, uses `127.0.0.1:6379` if Redis answers there, else starts a `redis-server` with its data in `.data/redis`.",
      }),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'REDIS_PREFIX may hold letters, digits and : _ . - (at most 64)')
      .optional()
      .meta({
        description:
          "Prefix of every Redis key and queue: letters, digits and `: _ . -`, at most 64. The default comes from the database's host, port and name (not its credentials): installs sharing one Redis never take each other's jobs, sessions or rate limits, and a new database password keeps it. Set it to keep the prefix when the database moves (an install made before this default used `plink:`).",
        unset: '`plink:<database name>-<6 hex digits>:`',
      }),
    SMTP_URL: optionalString.meta({
      description:
        'The mail relay, `smtp://user:password@host:587`, or `smtps://…` for TLS from the start; messages go through a pool of open connections, one per e-mail job a worker runs at once. Unset: every message is written to `MAIL_OUTBOX_DIR` and its links are printed on the console. In production the apps refuse to start without it unless `MAIL_OUTBOX_DIR` is set.',
    }),
    MAIL_FROM: z
      .string()
      .default('Plink <no-reply@plink.local>')
      .meta({ description: "Sender (`From:`) of every e-mail Plink sends." }),
    MAIL_OUTBOX_DIR: optionalString.meta({
      description:
        'Folder the e-mails are written to, one `.eml` file each, when `SMTP_URL` is unset. Setting it in production, even to `.data/mail`, is the deliberate choice to run without SMTP.',
      unset: '`.data/mail`',
    }),
    SESSION_SECRET: optionalString.meta({
      description:
        "The key behind sign-in and signing: Redis keeps only an HMAC of each session id under it, and the verification and reset tokens in the e-mail jobs and the webhook signing secrets in the database are sealed with it. Every app of an install needs the same value; a new one signs everybody out, and a page's webhook signs nothing until its owner rotates its secret. At least 32 characters; in production it must be set, must not be an example value, and must carry 32 random bytes (e.g. `openssl rand -base64 48`).",
      unset: 'a fixed development value (refused in production)',
    }),
    TRUST_PROXY: trustProxy.meta({
      description:
        "Which `X-Forwarded-For`/`-Proto`/`-Host` hops the gateway believes for a request's client address (rate limits, `/metrics`, logs) and host. `false`: none, the connection's peer is the client. A number: the proxies in front (`1` behind one load balancer), for a port only they can reach. Their addresses or CIDR ranges (`10.0.0.0/8,192.168.1.5`): also safe when clients can reach the port directly. `true` is refused: any client could choose its own address.",
    }),
    UPLOADS_DIR: z
      .string()
      .default('.data/uploads')
      .meta({ description: 'Folder the uploaded images are kept in when `S3_ENDPOINT` is unset; the gateway serves them at `/uploads/<key>`.' }),
    S3_ENDPOINT: optionalString.meta({
      description:
        'Host name of an S3-compatible store (AWS S3, MinIO, …) to keep the uploads in instead of `UPLOADS_DIR`; `http(s)://host[:port]` is taken too, its scheme then deciding HTTPS and its port standing in for an unset `S3_PORT`. Setting it requires `S3_ACCESS_KEY`, `S3_SECRET_KEY` and `S3_BUCKET`.',
    }),
    S3_PORT: z.coerce
      .number()
      .int()
      .min(1)
      .max(65535)
      .optional()
      .meta({ description: 'Port of the S3 endpoint.', unset: '443 with `S3_USE_SSL`, 80 without' }),
    S3_USE_SSL: bool.default(true).meta({ description: 'Reach the S3 endpoint over HTTPS (`false`: plain HTTP, e.g. a MinIO inside a private network).' }),
    S3_ACCESS_KEY: optionalString.meta({ description: 'Access key (user name) for the S3 store.' }),
    S3_SECRET_KEY: optionalString.meta({ description: 'Secret key (password) for the S3 store.' }),
    S3_BUCKET: optionalString.meta({ description: 'Bucket the uploads are kept in; created in `S3_REGION` on first use when it does not exist.' }),
    S3_REGION: z.string().default('us-east-1').meta({ description: 'Region of the S3 requests, and the one a missing bucket is created in.' }),
    S3_PUBLIC_URL: optionalString.meta({
      description:
        "Public base URL of the bucket's objects (e.g. `https://cdn.example.com/plink-uploads`): pages then link their images there, so the bucket, or the CDN in front of it, must let anyone read them. Unset: images are linked as `/uploads/<key>` on the app's and the pages' own host, and the gateway serves them from the bucket.",
    }),
    UPLOAD_ORPHAN_GRACE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(8760)
      .default(24)
      .meta({
        description:
          'Hours an uploaded image that no page shows may stay before the sweep (every 6 hours, UTC) removes it: the time a creator has to save the page it was uploaded for. Whole hours, 1–8760.',
      }),
    STRIPE_SECRET_KEY: optionalString.meta({
      description:
        'Stripe\'s secret API key (`sk_live_…`, or `sk_test_…` in test mode): turns payments on, and then requires `STRIPE_PRICE_ID`. Unset: the payment calls answer 503 "Payments are not configured on this server."',
    }),
    STRIPE_WEBHOOK_SECRET: optionalString.meta({
      description:
        'Signing secret (`whsec_…`) of the Stripe webhook endpoint `<APP_ORIGIN>/api/webhooks/stripe`, which listens to checkout.session.completed, customer.subscription.created/updated/deleted/paused/resumed/trial_will_end, invoice.paid and invoice.payment_failed. Unset: every Stripe webhook is refused (400).',
    }),
    STRIPE_PRICE_ID: optionalString.meta({ description: 'The Pro plan\'s price (`price_…`, recurring $10/month); required with `STRIPE_SECRET_KEY`.' }),
    STRIPE_API_URL: z
      .url()
      .refine((v) => isOrigin(v), { error: 'STRIPE_API_URL must be an http(s) origin (scheme, host and port), without a path' })
      .optional()
      .transform((v) => (v === undefined ? undefined : new URL(v).origin))
      .meta({
        description: "A Stripe-compatible server to call instead of Stripe's API, `http(s)://host:port` (e.g. the tests' local Stripe server).",
        unset: "Stripe's own API",
      }),
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce
      .number()
      .int()
      .min(0)
      .default(200)
      .meta({ description: 'Calls per minute one client address may make to each of login, register, forgot-password and reset-password; beyond it, 429. `0`: no limit.' }),
    LOGIN_FAILURES_PER_ADDRESS: z.coerce
      .number()
      .int()
      .min(0)
      .default(50)
      .meta({
        description:
          "Wrong passwords one client address may send in 15 minutes, over all accounts: the one that reaches it blocks the address's logins (429) for 15 minutes. Apart from it, one address guessing one account's password waits longer after each wrong password from the 5th. `0`: no address limit.",
      }),
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .default(10)
      .meta({
        description:
          'Registration attempts one client address may make in an hour (429 beyond): an answer tells whether an e-mail already has an account, and this keeps a list of addresses from being checked quickly. `0`: no limit.',
      }),
    LEAD_RATE_LIMIT_PER_MINUTE: z.coerce
      .number()
      .int()
      .min(0)
      .default(20)
      .meta({ description: 'Lead submissions per minute one client address may make to one page; beyond it, 429. `0`: no limit (e.g. for load tests).' }),
    LEAD_FLOOD_PER_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .default(100)
      .meta({
        description:
          "Accepted sign-ups in the last hour above which a page is under attack, when they are also over 10 times its median hourly sign-ups of the last 7 days: for 24 hours its visitors confirm by e-mail (as on a double opt-in page) and its owner gets one e-mail. `0`: off (load tests that flood on purpose).",
      }),
    LEAD_REFUSED_PER_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .default(50)
      .meta({
        description:
          'Refused submissions (bot shield, throwaway or no-mail domains, rate limit) in the last hour above which a page is under attack, when they are also over 10 times its accepted ones: the same 24 hours of confirm-by-e-mail. `0`: off.',
      }),
    LEAD_EVIDENCE: z
      .enum(['full', 'minimal'])
      .default('full')
      .meta({
        description:
          "What each lead keeps as proof of how it was given. `full`: the consent text the visitor was shown (once per distinct text), the privacy link, the times, and the visitor's IP address and browser (user agent) at sign-up. `minimal`: the times and texts only, no IP address or user agent. Either way the record lives as long as the lead, and IP addresses and user agents are never written to the logs.",
      }),
    DNS_SERVERS: optionalString
      .refine((v) => v === undefined || v.split(',').every((s) => isDnsServer(s.trim())), {
        error: 'DNS_SERVERS must be a comma-separated list of IP addresses, each with an optional :port (an IPv6 address with a port in brackets)',
      })
      .meta({
        description:
          "The DNS servers the e-mail domain check asks (`EMAIL_MX_CHECK`): comma-separated IP addresses with an optional port (`ip[:port]`, `[ipv6]:port`), e.g. `1.1.1.1,9.9.9.9:53`. Each lookup waits 1.5 s at most; a timeout or a server failure accepts the address.",
        unset: "the system's resolvers",
      }),
    EMAIL_MX_CHECK: bool.optional().meta({
      description:
        "Refuse a lead whose e-mail domain has neither an MX nor an A/AAAA record ('This e-mail domain does not receive mail.', 400), on pages that refuse throwaway addresses (their default). `false` for machines without working DNS (they answer \"no such domain\" for every name).",
      unset: '`true` with `NODE_ENV=production`, else `false`',
    }),
    OPERATOR_PASSWORD: optionalString.meta({
      description:
        "Turns on the gateway's queue dashboard at `/admin/queues` (every queue and its jobs; retry or remove failed ones) behind HTTP basic auth with this password and any user name; at least 12 characters. 10 wrong passwords from one address in 15 minutes get 429. Unset: no dashboard (404).",
    }),
    METRICS_TOKEN: optionalString.meta({
      description:
        "Opens `GET /metrics` (Prometheus text) to any request with `Authorization: Bearer <token>`, on the gateway's port and on every `HEALTH_PORT`. Without the token `/metrics` answers loopback and private addresses only: on a `HEALTH_PORT` always, on the gateway's own port only outside production; anyone else gets 404.",
    }),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false).meta({
      description:
        'Development and tests only: webhooks may reach loopback, private and link-local addresses (a receiver on 127.0.0.1), and the notifications service logs a warning as it starts. Off, such URLs are refused when a creator saves them and every attempt to one fails.',
    }),
    WEBHOOK_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .default(20)
      .meta({
        description:
          "Webhook attempts one process running the notifications service makes at once (1–500). One creator's pages together get at most half of them, so a creator whose receivers hang cannot hold up the others' webhooks.",
      }),
    WEBHOOK_YIELD_PRESSURE: z.coerce
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .meta({
        description:
          "Captures first: when some task of the host waited for a CPU during at least this share of the last 250 ms (Linux pressure stall information, read from `CPU_PRESSURE_FILE`), webhook and hook attempts slow down to `WEBHOOK_YIELD_RATE` a second, and the ones that waited leave at once when the CPU is free again (0–1; 0: never slow down). Nothing is dropped: during a burst of sign-ups the tools get their leads later.",
      }),
    WEBHOOK_YIELD_RATE: z.coerce
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(200)
      .meta({ description: 'Webhook and hook attempts a second one notifications process makes while they give way to captures (1–100000; see `WEBHOOK_YIELD_PRESSURE`).' }),
    CPU_PRESSURE_FILE: z
      .string()
      .min(1)
      .default('/proc/pressure/cpu')
      .meta({
        description:
          "Where the notifications service reads how long the host's tasks waited for a CPU (the Linux pressure file's `some … total=` line). A file that cannot be read counts as no pressure.",
      }),
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .default(4)
      .meta({ description: "Attempts one endpoint (a page's webhook host) may have under way at once in one process, at most half of `WEBHOOK_CONCURRENCY`." }),
    WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(60_000)
      .default(3_000)
      .meta({
        description:
          'A webhook attempt whose connection (DNS lookup and TCP) is not made within this many ms gives up, to be retried later (100–60000, at most `WEBHOOK_RESPONSE_TIMEOUT_MS`).',
      }),
    WEBHOOK_RESPONSE_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(60_000)
      .default(10_000)
      .meta({ description: 'A webhook attempt with no answer within this many ms, counted from its start, gives up, to be retried later (1000–60000).' }),
    PLINK_WORKERS: z
      .string()
      .default('none')
      .meta({
        description:
          "Gateway only: the services whose job processors it also runs in its own process: `none`, `all`, or a comma list of `identity`, `pages` (with the uploads queue), `leads`, `billing`, `notifications`. `npm start` runs `all` (only a value set in the shell changes that, not one in `.env`); in production each service app runs its own and the gateway keeps `none`.",
      }),
    HEALTH_PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .meta({
        description:
          'Service apps: port of `/health`, `/health/live`, `/health/ready` and `/metrics`. Gateway: when set, a port of its own that serves `/metrics` to scrapers inside the network (the address judged is the connection\'s, never a forwarded one; keep it unpublished).',
        unset: 'identity 3101, pages 3102, leads 3103, billing 3104, notifications 3105; gateway: none',
      }),
    WORKER_NICENESS: z.coerce
      .number()
      .int()
      .min(0)
      .max(19)
      .default(0)
      .meta({
        description:
          "Service apps sharing a host's cores with gateways: the process's OS scheduling niceness, 0 (normal) to 19 (lowest). From 10 up the gateways go first when the CPU is short, and the jobs catch up after the burst; nothing changes while the CPU is free.",
      }),
    SHUTDOWN_GRACE_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(600_000)
      .default(25_000)
      .meta({
        description:
          "The longest a stop (SIGTERM, SIGINT) may take, in ms (1000–600000): readiness answers 503 `draining` at once, requests and jobs under way finish, then the process exits, with 1 when the time ran out. Keep it below the orchestrator's grace period.",
      }),
    WEB_DIST_DIR: optionalString.meta({
      description: 'Gateway: folder of the built web app, holding its `index.html`.',
      unset: "`apps/web/dist` beside the gateway's build, else under the working directory",
    }),
  })
  .superRefine((env, ctx) => {
    // A known password on a public install: the demo creator is for a developer's own machine only.
    if (env.NODE_ENV === 'production' && env.PLINK_DEMO_SEED) {
      ctx.addIssue({ code: 'custom', path: ['PLINK_DEMO_SEED'], message: 'PLINK_DEMO_SEED is for development: a production install never gets the demo creator (unset it)' });
    }
    const weak = env.NODE_ENV === 'production' ? weakSecretReason(env.SESSION_SECRET) : null;
    if (weak) ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: weak });
    else if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'SESSION_SECRET must be at least 32 characters' });
    }
    // A production server whose mail only lands in a folder sends no verification e-mail, so nobody can create a
    // page: it does not start, unless the folder was chosen on purpose (MAIL_OUTBOX_DIR set).
    if (env.NODE_ENV === 'production' && !env.SMTP_URL && !env.MAIL_OUTBOX_DIR) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: SMTP_REQUIRED });
    }
    if (env.OPERATOR_PASSWORD && env.OPERATOR_PASSWORD.length < 12) {
      ctx.addIssue({ code: 'custom', path: ['OPERATOR_PASSWORD'], message: 'OPERATOR_PASSWORD must be at least 12 characters' });
    }
    // Checkout needs the price of the Pro plan: a server with a Stripe key but no price would take no payment
    // and only find out at a customer's first click, so it does not start.
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_PRICE_ID) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_PRICE_ID'], message: 'STRIPE_PRICE_ID (the price_… of the Pro plan) is required when STRIPE_SECRET_KEY is set' });
    }
    if (env.S3_ENDPOINT) {
      for (const key of ['S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required when S3_ENDPOINT is set` });
      }
    }
    if (env.WEBHOOK_CONNECT_TIMEOUT_MS > env.WEBHOOK_RESPONSE_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_CONNECT_TIMEOUT_MS'],
        message: 'WEBHOOK_CONNECT_TIMEOUT_MS must not be longer than WEBHOOK_RESPONSE_TIMEOUT_MS (the whole attempt)',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  appOrigin: string;
  /**
   * The origin visitors' landing pages are served from. When it differs from {@link appOrigin}, creators'
   * code runs on that host, never beside the app's session; when it is the same, pages with creator code
   * are sandboxed (see the gateway's security headers).
   */
  publicOrigin: string;
  /** True when APP_ORIGIN is https: cookies get the Secure flag. */
  secureCookies: boolean;
  logLevel: Env['LOG_LEVEL'];
  /**
   * The gateway creates the demo creator on a database with no account yet (PLINK_DEMO_SEED; by default in
   * development only, never in production).
   */
  demoSeed: boolean;
  databaseUrl: string;
  databasePoolMax: number;
  /**
   * Apply pending migrations when the process starts (the default, under an advisory lock). When false the
   * process refuses to start while migrations are pending: a one-off `plink migrate` applies them first.
   */
  migrateOnStart: boolean;
  redisUrl: string;
  redisPrefix: string;
  smtpUrl?: string;
  mailFrom: string;
  mailOutboxDir: string;
  sessionSecret: string;
  /**
   * Which X-Forwarded-* hops Fastify believes (its `trustProxy`): false (none), a number of proxies in front,
   * or the proxies' addresses and CIDR ranges. `request.ip` follows it: rate limits, /metrics and logs use it.
   */
  trustProxy: false | number | string[];
  uploadsDir: string;
  s3?: {
    endPoint: string;
    port?: number;
    useSSL: boolean;
    accessKey: string;
    secretKey: string;
    bucket: string;
    region: string;
    publicUrl?: string;
  };
  /** Uploads no page shows are swept once they are older than this (hours): time for a creator to save. */
  uploadOrphanGraceHours: number;
  /** Set only with STRIPE_SECRET_KEY: without it, payments answer "not configured". `apiUrl`: a Stripe-compatible server. */
  stripe?: { secretKey: string; webhookSecret?: string; priceId: string; apiUrl?: string };
  /** Requests per minute one address may make to each auth call (0 = off). */
  authRateLimitPerMinute: number;
  /** Wrong passwords one address may send in 15 minutes, over all accounts, before its logins get 429 (0 = off). */
  loginFailuresPerAddress: number;
  /** Registration attempts one address may make in an hour (0 = off): each answer says whether an e-mail has an account. */
  registrationsPerAddressPerHour: number;
  /** Lead submissions per minute one address may make to one page (0 = off, e.g. for load tests). */
  leadRateLimitPerMinute: number;
  /** Accepted sign-ups in an hour (and over 10× the page's median hour of 7 days) that put a page under attack (0 = off). */
  leadFloodPerHour: number;
  /** Refused submissions in an hour (and over 10× the accepted ones) that put a page under attack (0 = off). */
  leadRefusedPerHour: number;
  /** What a lead keeps as evidence of its consent: `full` adds the visitor's IP address and user agent to the times and texts. */
  leadEvidence: 'full' | 'minimal';
  /** The resolvers of the e-mail domain check, `host[:port]` each; empty: the system's. */
  dnsServers: string[];
  /** Refuse leads whose e-mail domain has neither MX nor A/AAAA records (pages that refuse throwaway addresses). */
  emailMxCheck: boolean;
  /** The queue dashboard's password (/admin/queues); unset: no dashboard. */
  operatorPassword?: string;
  /** /metrics answers requests from private addresses, and any request bearing this token. */
  metricsToken?: string;
  /**
   * Webhooks may connect to loopback, private, link-local and other inward addresses. Off by default: only
   * for local development and tests (a receiver on 127.0.0.1); logged as a warning at start.
   */
  webhookAllowPrivateNetworks: boolean;
  /** Webhook deliveries one notifications process sends at once. */
  webhookConcurrency: number;
  /** Share of time the host's tasks waited for a CPU (0–1) from which webhook attempts give way to captures; 0: never. */
  webhookYieldPressure: number;
  /** Webhook and hook attempts a second while they give way. */
  webhookYieldRate: number;
  /** The Linux CPU pressure file read for {@link webhookYieldPressure}. */
  cpuPressureFile: string;
  /** Attempts one endpoint (a page's webhook host) has under way at once in a process. */
  webhookEndpointConcurrency: number;
  /** An attempt whose connection (DNS and TCP) is not made within this long gives up. */
  webhookConnectTimeoutMs: number;
  /** An attempt gives up after this long in all. */
  webhookResponseTimeoutMs: number;
  workers: string;
  healthPort?: number;
  workerNiceness: number;
  /** The longest a stop may take (SIGTERM): work under way finishes within it; then the process exits anyway. */
  shutdownGraceMs: number;
  webDistDir?: string;
}

export class ConfigError extends Error {}

/**
 * The Redis key prefix of an install that sets none: `plink:<database name>-<6 hex>:`, the hex from the
 * database's host, port and name. Two installs on one Redis with different databases (two checkouts, a test
 * run beside `npm start`) then never take each other's jobs, sessions or rate limits, while every process of one
 * install agrees. Credentials are left out, so rotating the database password keeps the prefix (and the jobs
 * waiting under it).
 */
export function defaultRedisPrefix(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const where = `${url.hostname.toLowerCase()}:${url.port || '5432'}/${name}`;
  const hash = createHash('sha256').update(where).digest('hex').slice(0, 6);
  return `plink:${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${hash}:`;
}

/** Validates the environment into a typed config, or throws one readable error listing every problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty variable (e.g. `S3_PORT=` copied from .env.example) means "not set".
  const set = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appOrigin: e.APP_ORIGIN,
    publicOrigin: e.PUBLIC_ORIGIN ?? e.APP_ORIGIN,
    secureCookies: e.APP_ORIGIN.startsWith('https:'),
    logLevel: e.LOG_LEVEL,
    demoSeed: e.PLINK_DEMO_SEED ?? e.NODE_ENV === 'development',
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    migrateOnStart: e.MIGRATE_ON_START,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX ?? defaultRedisPrefix(e.DATABASE_URL),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailOutboxDir: e.MAIL_OUTBOX_DIR ?? '.data/mail',
    sessionSecret: e.SESSION_SECRET ?? DEV_SESSION_SECRET,
    trustProxy: e.TRUST_PROXY,
    uploadsDir: e.UPLOADS_DIR,
    s3: e.S3_ENDPOINT
      ? {
          endPoint: e.S3_ENDPOINT,
          port: e.S3_PORT,
          useSSL: e.S3_USE_SSL,
          accessKey: e.S3_ACCESS_KEY!,
          secretKey: e.S3_SECRET_KEY!,
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined,
    uploadOrphanGraceHours: e.UPLOAD_ORPHAN_GRACE_HOURS,
    stripe: e.STRIPE_SECRET_KEY
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, priceId: e.STRIPE_PRICE_ID!, apiUrl: e.STRIPE_API_URL }
      : undefined,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
    registrationsPerAddressPerHour: e.REGISTRATIONS_PER_ADDRESS_PER_HOUR,
    leadRateLimitPerMinute: e.LEAD_RATE_LIMIT_PER_MINUTE,
    leadFloodPerHour: e.LEAD_FLOOD_PER_HOUR,
    leadRefusedPerHour: e.LEAD_REFUSED_PER_HOUR,
    leadEvidence: e.LEAD_EVIDENCE,
    dnsServers: e.DNS_SERVERS ? e.DNS_SERVERS.split(',').map((s) => s.trim()).filter((s) => s !== '') : [],
    emailMxCheck: e.EMAIL_MX_CHECK ?? e.NODE_ENV === 'production',
    operatorPassword: e.OPERATOR_PASSWORD,
    metricsToken: e.METRICS_TOKEN,
    webhookAllowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookEndpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    webhookConnectTimeoutMs: e.WEBHOOK_CONNECT_TIMEOUT_MS,
    webhookResponseTimeoutMs: e.WEBHOOK_RESPONSE_TIMEOUT_MS,
    webhookYieldPressure: e.WEBHOOK_YIELD_PRESSURE,
    webhookYieldRate: e.WEBHOOK_YIELD_RATE,
    cpuPressureFile: e.CPU_PRESSURE_FILE,
    workers: e.PLINK_WORKERS,
    healthPort: e.HEALTH_PORT,
    workerNiceness: e.WORKER_NICENESS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    webDistDir: e.WEB_DIST_DIR,
  };
}

/** The config with secrets masked, for the boot log line. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  const maskUrl = (url?: string) => (url ? url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@') : undefined);
  return {
    env: config.env,
    port: config.port,
    appOrigin: config.appOrigin,
    publicOrigin: config.publicOrigin,
    database: maskUrl(config.databaseUrl),
    redis: maskUrl(config.redisUrl),
    redisPrefix: config.redisPrefix,
    trustProxy: config.trustProxy,
    mail: config.smtpUrl ? maskUrl(config.smtpUrl) : `folder ${config.mailOutboxDir}`,
    storage: config.s3 ? `s3 ${config.s3.endPoint}/${config.s3.bucket}` : `folder ${config.uploadsDir}`,
    stripe: config.stripe ? (config.stripe.webhookSecret ? 'configured' : 'configured, without STRIPE_WEBHOOK_SECRET (webhooks refused)') : 'not configured',
    webhookConcurrency: config.webhookConcurrency,
    webhookEndpointConcurrency: config.webhookEndpointConcurrency,
    webhookTimeouts: `connect ${config.webhookConnectTimeoutMs} ms, response ${config.webhookResponseTimeoutMs} ms`,
    webhookAllowPrivateNetworks: config.webhookAllowPrivateNetworks,
    workers: config.workers,
    demoSeed: config.demoSeed,
  };
}
