import { createHash } from 'node:crypto';
import { AccountDataMessages, IdentityMessages } from '@plink/contracts';
import { Storage } from '@plink/storage';
import { SmtpCatcher, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** The schemas of the services (and the platform's own), whose every table the deletion is checked against. */
const SCHEMAS = ['identity', 'pages', 'leads', 'billing', 'notifications', 'platform'];
/** Columns that name a user, a page, a lead or a webhook message by id, whatever table they are in. */
const REFERENCE_COLUMNS = ['user_id', 'owner_id', 'page_id', 'lead_id', 'message_id'] as const;

/** Rows that hold a deleted page's id and nothing more: allowed to stay, by table. */
const BARE_TOMBSTONES: Record<string, string> = {
  'leads.page_facts':
    'x.deleted and x.slug is null and x.owner_id is null and x.owner_username is null and x.public is null and x.file_url is null and x.delivery_email is null',
};

interface Creator {
  id: number;
  username: string;
  email: string;
  password: string;
  browser: TestBrowser;
  slug: string;
  pageId: number;
  uploadKey: string;
  /** An API token of theirs (Settings → API tokens). */
  apiToken: string;
}

/**
 * Settings → Account → Delete account, through the whole gateway with every worker in-process (real
 * PostgreSQL, Redis, SMTP, the local upload store). The deletion is checked against every table of every
 * service schema as information_schema lists them (a table added later is checked too): no row that names the
 * deleted user (their id, their pages', leads' or webhook messages' ids, their username, e-mail or page
 * address) is left anywhere, while a second creator keeps every row they had.
 */
describe('account deletion, across the services', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '0', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const visit = async (path: string) => (await fetch(`${gateway.origin}${path}`)).status;
  const submit = (slug: string, email: string) => gateway.browser().post(`/api/page/${slug}/submit`, { email, consent: true });

  /** A verified creator with one page showing an uploaded image, two leads, views, a webhook log and a billing account. */
  async function creator(): Promise<Creator> {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const browser = gateway.browser();
    const who = { username: `gone_${tag}`, email: `gone.${tag}@example.com`, password: 'secret-password' };
    const registered = await browser.post('/api/register', who);
    expect(registered.status).toBe(201);
    const id = registered.body.id as number;
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [id]);
    const uploadKey = `u${id}/main-${tag.padEnd(22, 'x')}.png`;
    const storage = gateway.app.get(Storage, { strict: false });
    await storage.put(uploadKey, Buffer.from('not really a png, stored as the upload call would'), 'image/png');
    // An upload never saved to a page: the deletion removes it too.
    await storage.put(`u${id}/background-${tag.padEnd(22, 'y')}.png`, Buffer.from('draft'), 'image/png');
    // A page in the Trash goes with the account too (its slug is still held until then).
    const trashed = await browser.post('/api/pages', { slug: `binned-${tag}`, title: 'In the Trash' });
    expect(trashed.status).toBe(201);
    expect((await browser.request('DELETE', `/api/pages/${trashed.body.id as number}`)).status).toBe(200);
    const token = await browser.post('/api/tokens', { name: 'Zapier' });
    expect(token.status).toBe(201);
    const slug = `gone-${tag}`;
    const created = await browser.post('/api/pages', { slug, title: `Title ${tag}`, imageUrl: `/uploads/${uploadKey}` });
    expect(created.status).toBe(201);
    const pageId = created.body.id as number;
    for (const visitor of ['ann', 'bob']) expect((await submit(slug, `${visitor}.${tag}@visitors.example`)).status).toBe(200);
    expect(await visit(`/${slug}`)).toBe(200);
    // What the API of a Free creator does not make here (webhooks and billing are Pro's), as their services store it.
    await gateway.db.query(
      `insert into notifications.webhook_endpoints (page_id, owner_id, url, enabled, deleted, changed_at) values ($1, $2, 'https://hooks.example/x', true, false, now())`,
      [pageId, id],
    );
    await gateway.db.query(
      `insert into notifications.webhook_messages (id, page_id, event_type, body) values ($1, $2, 'lead.created', '{}')`,
      [`msg_${tag.padEnd(26, '0').slice(0, 26)}`, pageId],
    );
    await gateway.db.query(
      `insert into notifications.webhook_attempts (message_id, page_id, url, duration_ms, succeeded) values ($1, $2, 'https://hooks.example/x', 5, true)`,
      [`msg_${tag.padEnd(26, '0').slice(0, 26)}`, pageId],
    );
    await gateway.db.query(`insert into billing.accounts (user_id, status) values ($1, 'none') on conflict do nothing`, [id]);
    // A free trial they took, as billing records it (the SHA-256 of the normalised address, their customer).
    await gateway.db.query(
      `insert into billing.trials_taken (stripe_subscription_id, user_id, person_key, stripe_customer_id, trial_started_at) values ($1, $2, $3, $4, now())`,
      [`sub_${tag}`, id, createHash('sha256').update(who.email.toLowerCase()).digest('hex'), `cus_${tag}`],
    );
    // A hook subscription of their automation tool with a delivery, and the leads service's count of it (Pro's).
    const hook = await gateway.db.query<{ id: number }>(
      `insert into notifications.hooks (user_id, event, target_url, page_id, secret) values ($1, 'lead.created', 'https://hooks.zapier.example/x', null, 'sealed') returning id`,
      [id],
    );
    await gateway.db.query('insert into notifications.hook_versions (user_id, version) values ($1, 1)', [id]);
    await gateway.db.query(
      `insert into notifications.hook_messages (id, hook_id, user_id, lead_id, page_id, body) values ($1, $2, $3, 0, $4, '{}')`,
      [`hmsg_${tag.padEnd(25, '0').slice(0, 25)}`, hook.rows[0].id, id, pageId],
    );
    await gateway.db.query('insert into leads.owner_hooks (owner_id, hooks, version) values ($1, 1, 1)', [id]);
    return { id, ...who, browser, slug, pageId, uploadKey, apiToken: token.body.token as string };
  }

  async function tables(): Promise<{ schema: string; table: string; columns: string[] }[]> {
    const { rows } = await gateway.db.query<{ table_schema: string; table_name: string; columns: string[] }>(
      `select t.table_schema, t.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
         from information_schema.tables t join information_schema.columns c using (table_schema, table_name)
        where t.table_type = 'BASE TABLE' and t.table_schema = any($1)
        group by t.table_schema, t.table_name order by 1, 2`,
      [SCHEMAS],
    );
    return rows.map((r) => ({ schema: r.table_schema, table: r.table_name, columns: r.columns }));
  }

  /** Every row of every table, as text (the whole row), by table. */
  async function snapshot(): Promise<Map<string, string[]>> {
    const all = new Map<string, string[]>();
    for (const t of await tables()) {
      const { rows } = await gateway.db.query<{ row: string }>(`select x::text as row from "${t.schema}"."${t.table}" x`);
      all.set(`${t.schema}.${t.table}`, rows.map((r) => r.row));
    }
    return all;
  }

  /** The rows, in every table, that name the user: by a reference column, or by their username, e-mail or page address anywhere in the row. */
  async function rowsNaming(user: Creator, ids: { pages: number[]; leads: number[]; messages: string[] }): Promise<string[]> {
    const found: string[] = [];
    const values: Record<(typeof REFERENCE_COLUMNS)[number], unknown[]> = {
      user_id: [user.id],
      owner_id: [user.id],
      page_id: ids.pages,
      lead_id: ids.leads,
      message_id: ids.messages,
    };
    for (const t of await tables()) {
      const conditions = [`x::text ilike $1`, `x::text ilike $2`, `x::text ilike $3`];
      const params: unknown[] = [`%${user.username}%`, `%${user.email}%`, `%${user.slug}%`];
      for (const column of REFERENCE_COLUMNS) {
        if (!t.columns.includes(column) || values[column].length === 0) continue;
        params.push(values[column].map(String));
        conditions.push(`x."${column}"::text = any($${params.length})`);
      }
      // The table's own id, when it is the user's, their page's or lead's.
      const own: Record<string, unknown[]> = { 'identity.users': [user.id], 'pages.pages': ids.pages, 'leads.leads': ids.leads, 'notifications.webhook_messages': ids.messages };
      const mine = own[`${t.schema}.${t.table}`];
      if (mine && t.columns.includes('id')) {
        params.push(mine.map(String));
        conditions.push(`x.id::text = any($${params.length})`);
      }
      // The leads service keeps a deleted page's id, and nothing else, so that no late message brings it back.
      const tombstone = BARE_TOMBSTONES[`${t.schema}.${t.table}`];
      const where = `(${conditions.join(' or ')})${tombstone ? ` and not (${tombstone})` : ''}`;
      const { rows } = await gateway.db.query<{ row: string }>(`select x::text as row from "${t.schema}"."${t.table}" x where ${where}`, params);
      for (const r of rows) found.push(`${t.schema}.${t.table}: ${r.row}`);
    }
    return found;
  }

  async function storedKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of gateway.app.get(Storage, { strict: false }).list(prefix)) keys.push(object.key);
    return keys;
  }

  it('asks for the password and the typed username, and changes nothing when either is wrong', async () => {
    const c = await creator();
    expect(await c.browser.request('DELETE', '/api/account', { password: 'wrong-password', username: c.username })).toMatchObject({
      status: 400,
      body: { message: IdentityMessages.currentPasswordWrong },
    });
    expect(await c.browser.request('DELETE', '/api/account', { password: c.password, username: `${c.username}x` })).toMatchObject({
      status: 400,
      body: { message: AccountDataMessages.usernameMismatch },
    });
    expect(await c.browser.request('DELETE', '/api/account', { password: c.password })).toMatchObject({
      status: 400,
      body: { message: AccountDataMessages.usernameRequired },
    });
    expect((await gateway.browser().request('DELETE', '/api/account', { password: c.password, username: c.username })).status).toBe(401);
    expect((await c.browser.get('/api/user')).status).toBe(200);
    expect(await visit(`/${c.slug}`)).toBe(200);
  });

  it('removes the user at once and every row and upload of theirs through the jobs, and leaves another creator whole', async () => {
    const control = await creator();
    const gone = await creator();
    const otherSession = gateway.browser();
    expect((await otherSession.post('/api/login', { email: gone.email, password: gone.password })).status).toBe(200);
    const leads = (await gateway.db.query<{ id: number }>('select id from leads.leads where page_id = $1', [gone.pageId])).rows.map((r) => r.id);
    const messages = (await gateway.db.query<{ id: string }>('select id from notifications.webhook_messages where page_id = $1', [gone.pageId])).rows.map((r) => r.id);
    const ids = { pages: [gone.pageId], leads, messages };
    // The views counted above reach the analytics tables (pages.flush-views, every 2 s).
    await eventually(async () => (await gateway.db.query('select 1 from pages.page_days where page_id = $1', [gone.pageId])).rowCount! > 0);
    await eventually(async () => (await gateway.db.query('select 1 from pages.page_days where page_id = $1', [control.pageId])).rowCount! > 0);
    expect((await rowsNaming(gone, ids)).length).toBeGreaterThan(10);
    const before = await snapshot();

    const deleted = await gone.browser.request('DELETE', '/api/account', { password: gone.password, username: gone.username });
    expect(deleted).toMatchObject({ status: 200, body: { message: AccountDataMessages.accountDeleted } });

    // At once: no session, no sign-in, no public page.
    expect((await gone.browser.get('/api/user')).status).toBe(401);
    expect((await otherSession.get('/api/user')).status).toBe(401);
    expect((await gateway.browser().post('/api/login', { email: gone.email, password: gone.password })).status).toBe(401);
    for (const path of [`/${gone.slug}`, `/p/${gone.slug}`, `/p/${gone.username}/${gone.slug}`]) expect({ path, status: await visit(path) }).toEqual({ path, status: 404 });
    expect((await gateway.browser().get(`/api/page/${gone.slug}`)).status).toBe(404);
    expect((await submit(gone.slug, 'late@visitors.example')).status).toBe(404);
    const v1 = await fetch(`${gateway.origin}/api/v1/me`, { headers: { authorization: `Bearer ${gone.apiToken}` } });
    expect(v1.status).toBe(401);

    // Then, through the jobs: nothing names them anywhere, and nothing of theirs is stored.
    let left: string[] = [];
    await eventually(async () => {
      left = await rowsNaming(gone, ids);
      return left.length === 0 && (await storedKeys(`u${gone.id}/`)).length === 0;
    }).catch(() => expect(left).toEqual([]));
    expect(await storedKeys(`u${gone.id}/`)).toEqual([]);
    // What billing keeps of their trial: one keyed hash of the address (HMAC under a key from SESSION_SECRET), in
    // a table without any other column; it names nobody (the search above finds no row), and it is not the
    // plain SHA-256 of the address the trial was recorded under, which anyone could compute from the address.
    const remembered = await gateway.db.query('select * from billing.trials_remembered');
    expect(remembered.fields.map((f) => f.name)).toEqual(['person_hash']);
    const plainHash = createHash('sha256').update(gone.email.toLowerCase()).digest('hex');
    expect(remembered.rows.map((r) => r.person_hash)).not.toContain(plainHash);
    expect(remembered.rowCount).toBe((before.get('billing.trials_remembered') ?? []).length + 1);

    // The other creator keeps every row they had (and everyone else theirs): only rows naming the deleted user went.
    const after = await snapshot();
    for (const [table, rows] of before) {
      if (table.startsWith('platform.')) continue; // the outbox: messages relayed meanwhile
      const kept = new Set(after.get(table));
      const missing = rows.filter((row) => !kept.has(row) && !namesUser(row, gone, ids));
      expect({ table, missing }).toEqual({ table, missing: [] });
    }
    expect(await storedKeys(`u${control.id}/`)).toEqual(expect.arrayContaining([control.uploadKey, control.uploadKey.replace('/main-', '/background-').replace(/x+\.png$/, (m) => `${'y'.repeat(m.length - 4)}.png`)]));
    expect(await visit(`/${control.slug}`)).toBe(200);
    expect((await control.browser.get('/api/user')).status).toBe(200);

    // The last e-mail, to the address the account had.
    const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(gone.email.toLowerCase()) && /account was deleted/.test(m.subject));
    expect(mail.text).toContain(gone.username);

    // Username, e-mail and the page's address are free for someone new.
    const again = gateway.browser();
    expect((await again.post('/api/register', { username: gone.username, email: gone.email, password: 'another-secret' })).status).toBe(201);
    const newId = (await again.get('/api/user')).body.id as number;
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [newId]);
    expect((await again.post('/api/pages', { slug: gone.slug, title: 'A new owner' })).status).toBe(201);
    // …but not the free trial the deleted account took (a new address is offered it).
    expect((await again.get('/api/subscription')).body).toMatchObject({ trialAvailable: false });
    const stranger = gateway.browser();
    expect((await stranger.post('/api/register', { username: `new_${gone.username}`, email: `new.${gone.email}`, password: 'another-secret' })).status).toBe(201);
    expect((await stranger.get('/api/subscription')).body).toMatchObject({ trialAvailable: true });
  });

  it('changes nothing when the event comes again', async () => {
    const gone = await creator();
    const control = await creator();
    // The views counted while making them are flushed first (they change the pages' rows).
    await eventually(async () => (await gateway.db.query('select 1 from pages.page_days where page_id = $1', [control.pageId])).rowCount! > 0);
    await gone.browser.request('DELETE', '/api/account', { password: gone.password, username: gone.username });
    await eventually(async () => (await storedKeys(`u${gone.id}/`)).length === 0 && (await gateway.db.query('select 1 from billing.accounts where user_id = $1', [gone.id])).rowCount === 0);
    const before = await snapshot();
    // The owner publishes it again, as a relay retried after a crash would deliver it.
    const { Outbox } = await import('@plink/queue');
    const { EntityManager } = await import('@mikro-orm/postgresql');
    const em = gateway.app.get(EntityManager, { strict: false }).fork();
    gateway.app.get(Outbox, { strict: false }).publish(em, 'user.deleted', { v: 1, userId: gone.id, deletedAt: new Date().toISOString() });
    await em.flush();
    await eventually(async () => (await gateway.db.query("select 1 from platform.outbox where job_name = 'user.deleted'")).rowCount === 0);
    await new Promise((r) => setTimeout(r, 1500));
    const after = await snapshot();
    for (const [table, rows] of before) {
      if (table.startsWith('platform.') || table.startsWith('pages.page_') || table === 'pages.view_flushes' || table === 'pages.analytics_flushes') continue;
      expect({ table, rows: after.get(table)!.sort() }).toEqual({ table, rows: rows.sort() });
    }
    expect(await visit(`/${control.slug}`)).toBe(200);
  });
});

function namesUser(row: string, user: Creator, ids: { pages: number[]; leads: number[]; messages: string[] }): boolean {
  const lower = row.toLowerCase();
  if ([user.username, user.email, user.slug].some((s) => lower.includes(s.toLowerCase()))) return true;
  // A row text of a table with the user's reference: "(…,<id>,…)". Conservative: any of the user's ids as a field.
  const fields = row.replace(/^\(|\)$/g, '').split(',');
  const mine = new Set([String(user.id), ...ids.pages.map(String), ...ids.leads.map(String), ...ids.messages]);
  return fields.some((f) => mine.has(f.replace(/"/g, '')));
}
