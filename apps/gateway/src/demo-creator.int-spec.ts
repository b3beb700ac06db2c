import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { conversionRate, type PageDto, type PageStatsDto } from '@plink/contracts';
import { loadConfig } from '@plink/config';
import { DEMO_CREATOR } from '@plink/identity';
import { SAMPLE_LEAD_COUNT } from '@plink/leads';
import { DEMO_PAGE, DEMO_PAGE_VIEWS } from '@plink/pages';
import { createTestEnvironment, listenOnLoopback, pollUntil, type TestEnvironment } from '@plink/testing';
import { createGateway } from './bootstrap';
import { DemoCreatorSeed, type DemoSignIn } from './demo-creator';
import { TestBrowser } from './testing/http-client';

/**
 * The demo creator of a development database, as a developer meets it after a first `npm start`: a verified
 * creator whose sample page shows views, leads of several days and a conversion rate, made only on a database
 * with no account yet, once however many gateways start, never in production. Each case has its own database.
 */
describe('the demo creator', () => {
  const started: NestFastifyApplication[] = [];
  const envs: TestEnvironment[] = [];
  const clients: Client[] = [];

  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
    await Promise.all(clients.splice(0).map((db) => db.end()));
    await Promise.all(envs.splice(0).map((env) => env.cleanup()));
  });

  /** A fresh database and Redis prefix, with `npm start`'s NODE_ENV unless told otherwise. */
  async function environment(vars: Record<string, string> = {}): Promise<{ env: TestEnvironment; db: Client }> {
    const env = await createTestEnvironment({ NODE_ENV: 'development', PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...vars });
    envs.push(env);
    const db = new Client({ connectionString: env.database.url });
    await db.connect();
    clients.push(db);
    return { env, db };
  }

  /** The whole gateway on the environment's database, listening. */
  async function gateway(env: TestEnvironment, vars: Record<string, string> = {}): Promise<{ app: NestFastifyApplication; origin: string }> {
    const app = await createGateway(loadConfig({ ...env.vars, ...vars }));
    started.push(app);
    return { app, origin: await listenOnLoopback(app) };
  }

  const signInOf = (app: NestFastifyApplication): DemoSignIn | null => app.get(DemoCreatorSeed).signIn;

  /** The creators' accounts (Plink's own, ids below 1, left out). */
  const accounts = async (db: Client) =>
    (await db.query<{ id: number; email: string; is_verified: boolean }>('select id, email, is_verified from identity.users where id >= 1 order by id')).rows;
  const demoPages = async (db: Client) => (await db.query<{ id: number }>('select id from pages.pages where slug = $1', [DEMO_PAGE.slug])).rows;
  const leadCount = async (db: Client) => Number((await db.query<{ n: string }>('select count(*) as n from leads.leads')).rows[0].n);

  async function logIn(origin: string, password: string = DEMO_CREATOR.password): Promise<{ status: number; browser: TestBrowser }> {
    const browser = new TestBrowser(origin);
    const { status } = await browser.post('/api/login', { email: DEMO_CREATOR.email, password });
    return { status, browser };
  }

  it('is made on an empty development database: it signs in, and its sample page shows views, leads of several days and a conversion rate', async () => {
    const { env, db } = await environment();
    const { app, origin } = await gateway(env);
    expect(signInOf(app)).toEqual({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password, created: true });
    expect(await accounts(db)).toEqual([expect.objectContaining({ email: DEMO_CREATOR.email, is_verified: true })]);

    const { status, browser } = await logIn(origin);
    expect(status).toBe(200);
    const pages = (await browser.get('/api/pages')).body as PageDto[];
    expect(pages).toEqual([expect.objectContaining({ slug: DEMO_PAGE.slug, title: DEMO_PAGE.title, views: DEMO_PAGE_VIEWS, conversions: SAMPLE_LEAD_COUNT })]);

    const stats = (await browser.get(`/api/pages/${pages[0].id}/stats`)).body as PageStatsDto;
    expect(stats).toMatchObject({ views: DEMO_PAGE_VIEWS, conversions: SAMPLE_LEAD_COUNT, conversionRate: conversionRate(DEMO_PAGE_VIEWS, SAMPLE_LEAD_COUNT) });
    expect(stats.conversionRate).toBeGreaterThan(0);
    expect(stats.leads).toHaveLength(SAMPLE_LEAD_COUNT);
    const days = new Set(stats.leads.map((lead) => lead.createdAt.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(7);
    const oldest = Math.min(...stats.leads.map((lead) => Date.parse(lead.createdAt)));
    expect(Date.now() - oldest).toBeGreaterThan(7 * 86_400_000);
    expect(Date.now() - oldest).toBeLessThan(10 * 86_400_000);
    for (const lead of stats.leads) expect(Date.parse(lead.createdAt)).toBeLessThanOrEqual(Date.now());

    // A real page to the other services: visitors see it, and a visitor's address is one more lead.
    const visitorPage = await fetch(`${origin}/${DEMO_PAGE.slug}`);
    expect(visitorPage.status).toBe(200);
    expect(await visitorPage.text()).toContain(DEMO_PAGE.title);
    const submitted = await new TestBrowser(origin).post(`/api/page/${DEMO_PAGE.slug}/submit`, { email: 'a.visitor@example.com', consent: true });
    expect(submitted.status).toBe(200);
    const after = await pollUntil(
      async () => ((await browser.get(`/api/pages/${pages[0].id}/stats`)).body as PageStatsDto).conversions,
      (n) => n === SAMPLE_LEAD_COUNT + 1,
    );
    expect(after).toBe(SAMPLE_LEAD_COUNT + 1);
  });

  it('is made once: two gateways starting together on an empty database, then a restart, leave one creator, one page and its leads', async () => {
    const { env, db } = await environment();
    const [first, second] = await Promise.all([gateway(env), gateway(env)]);
    // One made it; the other found it made, and can print its sign-in too.
    expect([signInOf(first.app)?.created, signInOf(second.app)?.created].sort()).toEqual([false, true]);
    expect(signInOf(second.app)).toMatchObject({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password });
    await Promise.all(started.splice(0).map((app) => app.close()));

    const again = await gateway(env);
    expect(signInOf(again.app)).toEqual({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password, created: false });
    expect(await accounts(db)).toHaveLength(1);
    expect(await demoPages(db)).toHaveLength(1);
    expect(await leadCount(db)).toBe(SAMPLE_LEAD_COUNT);
    expect((await logIn(again.origin)).status).toBe(200);
  });

  it('is not made on a database that has an account, and its sign-in is no longer offered once its password changed', async () => {
    const { env, db } = await environment();
    // A developer's own account, registered on a gateway that makes no demo.
    const plain = await gateway(env, { PLINK_DEMO_SEED: 'false' });
    expect((await new TestBrowser(plain.origin).post('/api/register', { username: 'ann', email: 'ann@example.com', password: 'ann-secret' })).status).toBe(201);
    await Promise.all(started.splice(0).map((app) => app.close()));

    const { app, origin } = await gateway(env);
    expect(signInOf(app)).toBeNull();
    expect((await accounts(db)).map((a) => a.email)).toEqual(['ann@example.com']);
    expect(await demoPages(db)).toEqual([]);
    expect((await logIn(origin)).status).toBe(401);

    // On a database of its own, the demo creator changes its password: it is its own account now.
    const other = await environment();
    const demo = await gateway(other.env);
    const { browser } = await logIn(demo.origin);
    expect((await browser.post('/api/update-password', { currentPassword: DEMO_CREATOR.password, newPassword: 'my-own-password' })).status).toBe(200);
    const restarted = await gateway(other.env);
    expect(signInOf(restarted.app)).toBeNull();
    expect(await demoPages(other.db)).toHaveLength(1);
  });

  it('is never made in production, nor in development with PLINK_DEMO_SEED=false', async () => {
    const production = await environment({ NODE_ENV: 'production' });
    const prod = await gateway(production.env);
    // The seed is not even composed there.
    expect(() => prod.app.get(DemoCreatorSeed)).toThrow();
    expect(await accounts(production.db)).toEqual([]);
    expect((await logIn(prod.origin)).status).toBe(401);
    expect(() => loadConfig({ ...production.env.vars, PLINK_DEMO_SEED: 'true' })).toThrow(/PLINK_DEMO_SEED is for development/);

    const optedOut = await environment({ PLINK_DEMO_SEED: 'false' });
    await gateway(optedOut.env);
    expect(await accounts(optedOut.db)).toEqual([]);
    expect(await demoPages(optedOut.db)).toEqual([]);
  });
});
