import { inflateRawSync } from 'node:zlib';
import { EntityManager } from '@mikro-orm/postgresql';
import { runPlinkCommand } from '@plink/billing';
import { AccountDataMessages } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { Storage } from '@plink/storage';
import { SmtpCatcher, linkIn, type CaughtMail } from '@plink/testing';
import { identityUsers } from './testing/operator-users';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** The most the gateway's RSS (every worker in-process: the same code paths as the services' workers) may grow while exporting 100,000 leads. */
const RSS_GROWTH_LIMIT_MB = 64;
const BULK_LEADS = 100_000;

/** The entries of a ZIP (central directory), each inflated. Enough of the format for what yazl writes. */
function unzip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a ZIP: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Settings → Account → Export my data, through the whole gateway with every worker in-process (real PostgreSQL,
 * Redis, SMTP, the local upload store): the jobs build one ZIP (account.json; per page page.json, its uploads and
 * leads.csv), its owner downloads it, the e-mailed link works without a session for 24 hours, nobody else gets
 * it, and 100,000 leads are exported with flat memory.
 */
describe('account export, across the services', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', LOG_LEVEL: 'error', AUTH_RATE_LIMIT_PER_MINUTE: '0', LEAD_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  async function eventually<T>(check: () => Promise<T | false>, timeoutMs = 120_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = await check();
      if (value !== false) return value;
      if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('builds one ZIP of the account, its pages, uploads and leads, for its owner and the e-mailed link only; 100,000 leads with flat memory', async () => {
    const tag = Date.now().toString(36);
    const owner = gateway.browser();
    const who = { username: `export_${tag}`, email: `export.${tag}@example.com`, password: 'secret-password' };
    const registered = await owner.post('/api/register', who);
    const userId = registered.body.id as number;
    await gateway.db.query('update identity.users set is_verified = true where id = $1', [userId]);
    // Pro: more than one page.
    const out: string[] = [];
    const code = await runPlinkCommand(['grant-pro', who.email], { out: (line) => out.push(line), err: (line) => out.push(line), env: gateway.env.vars }, identityUsers);
    expect({ code, out }).toMatchObject({ code: 0 });
    await eventually(async () => (await owner.get('/api/user')).body.isPremium === true || false);
    const image = Buffer.from('an uploaded image, as stored');
    const uploadName = `main-${tag.padEnd(22, 'x')}.png`;
    const uploadKey = `u${userId}/${uploadName}`;
    await gateway.app.get(Storage, { strict: false }).put(uploadKey, image, 'image/png');
    const small = await owner.post('/api/pages', { slug: `small-${tag}`, title: 'Small page', imageUrl: `/uploads/${uploadKey}` });
    const big = await owner.post('/api/pages', { slug: `big-${tag}`, title: 'Big page' });
    expect([small.status, big.status]).toEqual([201, 201]);
    expect((await gateway.browser().post(`/api/page/small-${tag}/submit`, { email: 'ann@visitors.example', consent: true })).status).toBe(200);
    await gateway.db.query(
      `insert into leads.leads (page_id, email, email_lower, consent_at) select $1, 'lead' || i || '@bulk.example', 'lead' || i || '@bulk.example', now() from generate_series(1, $2) i`,
      [big.body.id, BULK_LEADS],
    );

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = await owner.post('/api/account/export');
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    expect(await owner.post('/api/account/export')).toMatchObject({ status: 409, body: { message: AccountDataMessages.exportBusy } });
    // 100,000 leads take the jobs a few seconds: it is still being built.
    expect(await owner.get(`/api/account/export/${id}`)).toMatchObject({ status: 202, body: { id, status: 'pending' } });

    const download = await eventually(async () => {
      const response = await fetch(`${gateway.origin}/api/account/export/${id}`, { headers: { cookie: `plink_session=${owner.cookie('plink_session')}` } });
      if (response.status === 202) return false;
      return response;
    });
    clearInterval(sampler);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="plink-export-/);
    const zip = Buffer.from(await download.arrayBuffer());
    const growthMb = (peak - baseline) / 1024 / 1024;
    console.log(`account export of ${BULK_LEADS} leads: ZIP ${(zip.length / 1024 / 1024).toFixed(1)} MB, gateway RSS growth ${growthMb.toFixed(1)} MB`);
    expect(growthMb).toBeLessThanOrEqual(RSS_GROWTH_LIMIT_MB);

    const entries = unzip(zip);
    expect([...entries.keys()].sort()).toEqual(
      ['account.json', `pages/big-${tag}/leads.csv`, `pages/big-${tag}/page.json`, `pages/small-${tag}/leads.csv`, `pages/small-${tag}/page.json`, `pages/small-${tag}/uploads/${uploadName}`].sort(),
    );
    const account = JSON.parse(entries.get('account.json')!.toString());
    expect(account).toMatchObject({ id: userId, username: who.username, email: who.email });
    expect(JSON.stringify(account)).not.toMatch(/password|token/i);
    expect(JSON.parse(entries.get(`pages/small-${tag}/page.json`)!.toString())).toMatchObject({ slug: `small-${tag}`, title: 'Small page' });
    expect(entries.get(`pages/small-${tag}/uploads/${uploadName}`)).toEqual(image);
    const smallCsv = entries.get(`pages/small-${tag}/leads.csv`)!.toString().trim().split('\n');
    expect(smallCsv[0]).toMatch(/^email,created_at,consent_at,page_slug/);
    expect(smallCsv[1]).toMatch(/^ann@visitors.example,/);
    const bigCsv = entries.get(`pages/big-${tag}/leads.csv`)!.toString().trim().split('\n');
    expect(bigCsv).toHaveLength(BULK_LEADS + 1);

    // Settings shows it; the leads' CSVs were only a step.
    expect((await owner.get('/api/account/export')).body.export).toMatchObject({ id, status: 'ready', size: zip.length });
    const stored: string[] = [];
    for await (const object of gateway.app.get(Storage, { strict: false }).list(`exports/u${userId}/${id}/`)) stored.push(object.key);
    expect(stored).toEqual([`exports/u${userId}/${id}/plink-export.zip`]);

    // Private: not at /uploads, not for another account.
    expect((await fetch(`${gateway.origin}/uploads/${stored[0]}`)).status).toBe(404);
    const other = gateway.browser();
    await other.post('/api/register', { username: `other_${tag}`, email: `other.${tag}@example.com`, password: 'secret-password' });
    expect(await other.get(`/api/account/export/${id}`)).toMatchObject({ status: 404, body: { message: AccountDataMessages.exportNotFound } });
    expect((await gateway.browser().get(`/api/account/export/${id}`)).status).toBe(404);

    // The e-mailed link works without a session; a changed signature does not.
    const mail = await smtp.waitFor((m: CaughtMail) => m.to.includes(who.email) && /data export is ready/.test(m.subject));
    const link = linkIn(mail, `http://plink.test/api/account/export/${id}?`);
    const url = new URL(link);
    const viaLink = await fetch(`${gateway.origin}${url.pathname}${url.search}`);
    expect(viaLink.status).toBe(200);
    expect(Buffer.from(await viaLink.arrayBuffer()).equals(zip)).toBe(true);
    url.searchParams.set('signature', url.searchParams.get('signature')!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')));
    expect((await fetch(`${gateway.origin}${url.pathname}${url.search}`)).status).toBe(404);
    url.searchParams.set('expires', String(Date.now() - 1000));
    expect((await fetch(`${gateway.origin}${url.pathname}${url.search}`)).status).toBe(404);

    // After 24 hours the sweep removes it, ZIP and all.
    await gateway.db.query("update identity.account_exports set created_at = now() - interval '25 hours' where id = $1", [id]);
    const em = gateway.app.get(EntityManager, { strict: false }).fork();
    gateway.app.get(Outbox, { strict: false }).record(em, 'identity.sweep-exports', { v: 1 });
    await em.flush();
    await eventually(async () => (await gateway.db.query('select 1 from identity.account_exports where id = $1', [id])).rowCount === 0 || false);
    const left: string[] = [];
    for await (const object of gateway.app.get(Storage, { strict: false }).list(`exports/u${userId}/${id}/`)) left.push(object.key);
    expect(left).toEqual([]);
    expect((await owner.get(`/api/account/export/${id}`)).status).toBe(404);
  }, 300_000);
});
