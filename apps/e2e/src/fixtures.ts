import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { Client } from 'pg';
import {
  FakeStripe,
  SmtpCatcher,
  createTestDatabase,
  deleteRedisPrefix,
  freePort,
  linkIn,
  testRedisUrl,
  uniqueRedisPrefix,
  type CaughtMail,
  type TestDatabase,
} from '@plink/testing';

/** The workspace root (apps/e2e/src → ../../..). */
const ROOT = resolve(__dirname, '..', '..', '..');
/** The project's Node 24 (the system Node is too old for the gateway). */
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const GATEWAY_MAIN = join(ROOT, 'apps', 'gateway', 'dist', 'main.js');

const STARTUP_TIMEOUT_MS = 60_000;
const KILL_GRACE_MS = 5_000;
/** At most this much of the gateway's output is kept (the tail). */
const LOG_LIMIT = 200_000;

/** One running gateway (API + the built SPA + the e-mail worker) with its own database, Redis keys and SMTP. */
export interface Gateway {
  /** http://127.0.0.1:<port>, also the APP_ORIGIN used in e-mail links. */
  origin: string;
  /** The landing pages' origin: `origin`, or http://{publicHost}:<port> when the `publicHost` option is set. */
  publicOrigin: string;
  smtp: SmtpCatcher;
  /** The gateway's own database, for set-up the product has no screen for yet (e.g. granting Pro). */
  databaseUrl: string;
  /** Everything the gateway wrote to stdout and stderr so far (the tail, if very long). */
  output(): string;
  /** The local Stripe server the gateway takes payments with (only with the `withStripe` option). */
  stripe: FakeStripe | null;
}

interface GatewayOptions {
  publicHost?: string;
  /** Start a local Stripe server (FakeStripe) and configure the gateway's payments and webhooks for it. */
  withStripe?: boolean;
}

class OutputBuffer {
  private text = '';
  append(chunk: Buffer | string): void {
    this.text += String(chunk);
    if (this.text.length > LOG_LIMIT) this.text = this.text.slice(-LOG_LIMIT);
  }
  toString(): string {
    return this.text;
  }
}

async function waitForHealth(origin: string, child: ChildProcess, output: OutputBuffer): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the gateway exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`);
    }
    try {
      const res = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the gateway did not answer GET /health with 200 within ${STARTUP_TIMEOUT_MS} ms (last: ${last}):\n${output}`);
}

/** SIGTERM, then SIGKILL if the gateway is still running after 5 s. */
async function stopGateway(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function startGateway(use: (gateway: Gateway) => Promise<void>, { publicHost, withStripe }: GatewayOptions): Promise<void> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const output = new OutputBuffer();
  try {
    const smtp = await SmtpCatcher.start();
    cleanups.push(() => smtp.stop());

    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.drop());

    const redisUrl = testRedisUrl();
    const redisPrefix = uniqueRedisPrefix();
    cleanups.push(() => deleteRedisPrefix(redisUrl, redisPrefix));

    const dataDir = mkdtempSync(join(tmpdir(), 'plink-e2e-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // Another name for the same gateway (e.g. `localhost`): landing pages on a host of their own.
    const publicOrigin = publicHost ? `http://${publicHost}:${port}` : origin;

    // Stripe's part, played locally: the API the gateway's SDK calls, the hosted checkout page, and the
    // webhooks, signed as Stripe signs them, POSTed to the gateway's endpoint.
    const stripe = withStripe ? await FakeStripe.start({ webhookUrl: `${origin}/api/webhooks/stripe` }) : null;
    if (stripe) cleanups.push(() => stripe.close());
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: process.env.LANG,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_ORIGIN: origin,
      ...(publicHost ? { PUBLIC_ORIGIN: publicOrigin } : {}),
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      SMTP_URL: smtp.url,
      PLINK_WORKERS: 'all',
      SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // The journeys register every creator from one address (127.0.0.1).
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
      // The journeys submit leads from one address (127.0.0.1): no per-minute cap on them.
      LEAD_RATE_LIMIT_PER_MINUTE: '0',
      // The webhook journey's receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      UPLOADS_DIR: join(dataDir, 'uploads'),
      MAIL_OUTBOX_DIR: join(dataDir, 'mail'),
      ...(stripe
        ? {
            STRIPE_API_URL: stripe.url,
            STRIPE_SECRET_KEY: stripe.secretKey,
            STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
            STRIPE_PRICE_ID: stripe.priceId,
          }
        : {}),
    };
    const child = spawn(NODE, [GATEWAY_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Runs before the database is dropped (cleanups run last-in, first-out).
    cleanups.push(() => stopGateway(child));
    child.stdout.on('data', (c: Buffer) => output.append(c));
    child.stderr.on('data', (c: Buffer) => output.append(c));
    child.on('error', (err) => output.append(`[e2e] could not start the gateway: ${err.message}\n`));

    // On failure the error carries the gateway's output, and the reporter prints it.
    await waitForHealth(origin, child, output);
    await use({ origin, publicOrigin, smtp, databaseUrl: database.url, output: () => output.toString(), stripe });
  } finally {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) console.error('[e2e] cleanup problems:', ...errors);
  }
}

interface TestFixtures {
  smtp: SmtpCatcher;
  /** Prints (and attaches) the gateway's output when a test fails. */
  gatewayOutputOnFailure: void;
}

interface WorkerFixtures {
  gateway: Gateway;
  /** Set (e.g. `test.use({ publicHost: 'localhost' })`) to serve landing pages on that host name (PUBLIC_ORIGIN). */
  publicHost: string | undefined;
  /** `test.use({ withStripe: true })`: payments on a local Stripe server (`gateway.stripe`). */
  withStripe: boolean;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  publicHost: [undefined, { scope: 'worker', option: true }],
  withStripe: [false, { scope: 'worker', option: true }],
  gateway: [
    async ({ publicHost, withStripe }, use) => startGateway(use, { publicHost, withStripe }),
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ gateway }, use) => use(gateway.origin),
  smtp: async ({ gateway }, use) => use(gateway.smtp),
  gatewayOutputOnFailure: [
    async ({ gateway, page }, use, testInfo) => {
      const before = gateway.output().length;
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        const all = gateway.output();
        const during = all.length >= before ? all.slice(before) : all;
        await testInfo.attach('gateway-output.txt', { body: all, contentType: 'text/plain' });
        console.error(`[e2e] gateway output during "${testInfo.title}":\n${during || '(nothing)'}`);
        // What the creator's tab showed, in the log itself: CI keeps the log, not the screenshots.
        const shown = await page
          .locator('body')
          .ariaSnapshot({ timeout: 5_000 })
          .catch((err: Error) => `(no snapshot: ${err.message})`);
        console.error(`[e2e] the tab at ${page.url()} showed:\n${shown}`);
      }
    },
    { auto: true },
  ],
});

export { expect };

/** A new user's credentials, unique per call. */
export function newIdentity(label = 'e2e') {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  return {
    username: `${label}_${tag}`,
    email: `${label}.${tag}@example.com`,
    password: 'first-secret-1',
  };
}

/** Waits for the mail to `email` whose subject matches, and returns its link starting at `origin + path`. */
export async function mailedLink(smtp: SmtpCatcher, email: string, subject: RegExp, prefix: string): Promise<string> {
  const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(email.toLowerCase()) && subject.test(m.subject), 20_000);
  return linkIn(mail, prefix);
}

/** A toast (a Mantine notification, role "alert") with this title. */
export function toast(page: Page, title: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: title });
}

/**
 * Opens a page's stats screen and waits until it is drawn: its analytics (the referrers' card) and its lead list
 * (the count under it). On the loaded 2-core machine the screen took 3 s to draw beside other journeys, and more
 * on a slower one: a check of what it shows then gets its own short wait, not the time the screen takes to appear.
 */
export async function openStats(page: Page, pageId: number): Promise<void> {
  await page.goto(`/stats/${pageId}`);
  await expect(page.getByRole('heading', { name: 'Top referrers' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^\d+ leads?\.$/)).toBeVisible({ timeout: 30_000 });
}

/** A full-page screenshot into the test's output folder (kept as an artifact). */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Fills the open register form with `who` (the confirmation repeats the password). */
export async function fillRegisterForm(page: Page, who: ReturnType<typeof newIdentity>): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(who.username);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(who.password);
}

/** Registers through the UI, verifies by the mailed link and lands on the dashboard. */
export async function registerAndVerify(page: Page, who: ReturnType<typeof newIdentity>, smtp: SmtpCatcher, origin: string): Promise<void> {
  await page.goto('/auth?tab=register');
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await fillRegisterForm(page, who);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Please verify your email' })).toBeVisible();
  const link = await mailedLink(smtp, who.email, /verify/i, `${origin}/verify-email?token=`);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/**
 * Collects the Content-Security-Policy violations Chromium reports on this page from now on (it logs each
 * as a console error, "Refused to load/apply/execute … because it violates the following Content Security
 * Policy directive"), so a journey can show that the app's and the landing pages' policies block nothing
 * they need.
 */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) seen.push(message.text());
  });
  return seen;
}

/** Makes a user Pro straight in the database (the journeys that need a Pro creator). */
export async function grantPro(databaseUrl: string, email: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const res = await db.query('update identity.users set is_premium = true where email = $1', [email]);
    expect(res.rowCount).toBe(1);
  } finally {
    await db.end();
  }
}
