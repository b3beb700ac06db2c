import type { Readable } from 'node:stream';
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '@plink/config';
import { openOrm, withOrmContext, type NativePgPool } from '@plink/data';
import type { Outbox } from '@plink/queue';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { LEADS_SCHEMA } from '../leads.schema';
import { LeadsRepository } from '../model/leads.repository';
import { to as copyTo } from 'pg-copy-streams';
import { leadsCopySql, neutraliseCell, neutraliseCellSql } from './leads-csv';

/**
 * The CSV export as PostgreSQL writes it (COPY … TO STDOUT through the ORM's own pool) on a real database:
 * the exact text, formula neutralising, timestamps, one snapshot, and the connection given back to the pool
 * however the stream ends.
 */
describe('lead export (COPY)', () => {
  let env: TestEnvironment;
  let orm: MikroORM;
  let repo: LeadsRepository;
  let pool: NativePgPool;

  beforeAll(async () => {
    env = await createTestEnvironment({ DATABASE_POOL_MAX: '4' });
    orm = await openOrm(loadConfig(env.vars), [LEADS_SCHEMA]);
    repo = new LeadsRepository(orm.em, {} as Outbox); // exports write no leads: the outbox is never reached
    pool = await orm.em.getConnection().getNativeClient();
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  let nextPage = 100;
  const newPage = () => (nextPage += 1);
  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> => withOrmContext(orm, () => orm.em.execute(text, params));
  /** Leads written as they are (email, created_at, consent_at). */
  async function store(pageId: number, leads: [string, string, string | null][]) {
    for (const [email, createdAt, consentAt] of leads) {
      await sql('insert into leads.leads (page_id, email, email_lower, created_at, consent_at) values (?, ?, ?, ?, ?)', [
        pageId,
        email,
        email.toLowerCase(),
        createdAt,
        consentAt,
      ]);
    }
  }
  async function bulk(pageId: number, count: number) {
    await sql(
      `insert into leads.leads (page_id, email, email_lower, consent_at, created_at)
       select ?, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', now(), now() - make_interval(secs => g)
         from generate_series(1, ?) g`,
      [pageId, count],
    );
  }
  async function text(stream: Readable): Promise<string> {
    let out = '';
    for await (const chunk of stream) out += String(chunk);
    return out;
  }
  /** Connections of the pool that someone holds now. */
  const checkedOut = () => pool.totalCount - pool.idleCount;
  async function until(what: string, test: () => boolean | Promise<boolean>, ms = 5_000) {
    const end = Date.now() + ms;
    while (!(await test())) {
      if (Date.now() > end) throw new Error(`still not: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const runningCopies = async () =>
    (await sql<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'copy (%' and state = 'active'"))[0].n;

  it('writes a header and one row per lead in the order they came, with ISO UTC times, quoting what needs it', async () => {
    const page = newPage();
    await store(page, [
      ['ada@example.com', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.000Z'],
      ['+x,y@example.com', '2026-01-03T00:00:00Z', null],
      // Microseconds are cut as Date.toISOString() would (it has milliseconds only); any session time zone.
      ['"quoted"@example.com', '2026-11-24 02:02:03.456789+01', '2026-11-24T01:02:03.999999Z'],
    ]);
    const csv = await text(await repo.exportCsv(page, 'my-page'));
    expect(csv).toBe(
      'email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device\n' +
        'ada@example.com,2026-01-02T03:04:05.678Z,2026-01-02T03:04:05.000Z,my-page,confirmed,,,,,,,,,,\n' +
        `"'+x,y@example.com",2026-01-03T00:00:00.000Z,,my-page,confirmed,,,,,,,,,,\n` +
        '"""quoted""@example.com",2026-11-24T01:02:03.456Z,2026-11-24T01:02:03.999Z,my-page,confirmed,,,,,,,,,,\n',
    );
    // The same text as the export before COPY wrote (the driver's value as a Date, toISOString()).
    const { rows } = await pool.query<{ created_at: Date | string }>('select created_at from leads.leads where page_id = $1 order by id', [page]);
    expect(csv.trimEnd().split('\n').slice(1).map((line) => line.split(',').at(-14))).toEqual(rows.map((r) => new Date(r.created_at).toISOString()));
  });

  it('writes only the header for a page without leads', async () => {
    expect(await text(await repo.exportCsv(newPage(), 's'))).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device\n');
    expect(await text(await repo.exportCsv(newPage(), 's', { signupIp: true }))).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device\n');
  });

  it('adds each lead’s consent version, and its sign-up IP address (without a mask) only when asked for', async () => {
    const page = newPage();
    const version = 'a'.repeat(64);
    await sql(
      `insert into leads.leads (page_id, email, email_lower, created_at, consent_at, consent_shown, consent_version, privacy_url, signup_ip, signup_user_agent)
       values (?, 'v4@example.com', 'v4@example.com', '2026-12-07T10:00:00Z', '2026-12-07T10:00:00Z', true, ?, 'https://plink.test/privacy', '203.0.113.9', 'UA 1'),
              (?, 'v6@example.com', 'v6@example.com', '2026-12-07T10:00:01Z', null, false, null, null, '2001:db8::1', 'UA 2'),
              (?, 'min@example.com', 'min@example.com', '2026-12-07T10:00:02Z', '2026-12-07T10:00:02Z', true, ?, 'https://plink.test/privacy', null, null)`,
      [page, version, page, page, version],
    );
    expect(await text(await repo.exportCsv(page, 'ev', { signupIp: true }))).toBe(
      'email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device\n' +
        `v4@example.com,2026-12-07T10:00:00.000Z,2026-12-07T10:00:00.000Z,ev,confirmed,,${version},203.0.113.9,,,,,,,,\n` +
        'v6@example.com,2026-12-07T10:00:01.000Z,,ev,confirmed,,,2001:db8::1,,,,,,,,\n' +
        `min@example.com,2026-12-07T10:00:02.000Z,2026-12-07T10:00:02.000Z,ev,confirmed,,${version},,,,,,,,,\n`,
    );
    const minimal = await text(await repo.exportCsv(page, 'ev', { signupIp: false }));
    expect(minimal.split('\n')[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    expect(minimal).not.toContain('203.0.113.9');
    expect(minimal).not.toContain('2001:db8::1');
    expect(minimal.split('\n')[1]).toBe(`v4@example.com,2026-12-07T10:00:00.000Z,2026-12-07T10:00:00.000Z,ev,confirmed,,${version},,,,,,,,`);
  });

  it('neutralises formulas in SQL exactly as neutraliseCell does, in the addresses and the slug', async () => {
    const cells = ['=cmd|"/c calc"!A1', '+cmd@example.com', '-2+3@example.com', '@SUM(A1)', '\tx', '\rx', 'ada@example.com', '', "'quoted", 'a=b'];
    const { rows } = await pool.query<{ v: string }>(`select ${neutraliseCellSql('c')} as v from unnest($1::text[]) with ordinality as t(c, n) order by n`, [cells]);
    expect(rows.map((r) => r.v)).toEqual(cells.map(neutraliseCell));

    const page = newPage();
    await store(page, [
      ['=HYPERLINK("http://x")@example.com', '2026-01-01T00:00:00Z', null],
      ['-1@example.com', '2026-01-01T00:00:01Z', null],
    ]);
    // The slug goes into the statement as an escaped literal: quotes and backslashes are just text.
    const lines = (await text(await repo.exportCsv(page, "=odd'slug\\"))).trimEnd().split('\n');
    expect(lines.slice(1)).toEqual([
      `"'=HYPERLINK(""http://x"")@example.com",2026-01-01T00:00:00.000Z,,'=odd'slug\\,confirmed,,,,,,,,,,`,
      `'-1@example.com,2026-01-01T00:00:01.000Z,,'=odd'slug\\,confirmed,,,,,,,,,,`,
    ]);
  });

  it('gives byte for byte what pg-copy-streams’ own parser gives, for a big page read in many socket chunks', async () => {
    const page = newPage();
    await bulk(page, 50_000);
    await store(page, [['"q",x\n@example.com', '2026-01-01T00:00:00Z', null]]);
    const client = await pool.connect();
    let reference: string;
    try {
      reference = await text(client.query(copyTo(leadsCopySql(page, client.escapeLiteral('lean'), { signupIp: false }))));
    } finally {
      client.release();
    }
    const lean = await text(await repo.exportCsv(page, 'lean'));
    expect(lean.length).toBeGreaterThan(2_000_000);
    expect(lean).toBe(reference);
    expect(lean.endsWith('"""q"",x\n@example.com",2026-01-01T00:00:00.000Z,,lean,confirmed,,,,,,,,,,\n')).toBe(true); // quoted, newline kept
  });

  it('is one snapshot: a lead stored while the file is being read is not in it', async () => {
    const page = newPage();
    await bulk(page, 20_000);
    const stream = await repo.exportCsv(page, 'snap');
    const chunks: string[] = [];
    let added = false;
    for await (const chunk of stream) {
      chunks.push(String(chunk));
      if (!added) {
        added = true;
        await store(page, [['late@example.com', new Date().toISOString(), null]]);
      }
    }
    const csv = chunks.join('');
    expect(chunks.length).toBeGreaterThan(1); // the lead came in the middle of the download
    expect(csv.trimEnd().split('\n')).toHaveLength(1 + 20_000);
    expect(csv).not.toContain('late@example.com');
    expect(await text(await repo.exportCsv(page, 'snap'))).toContain('late@example.com'); // the next export has it
  });

  it('gives the connection back when the stream ends, and closes it when the downloader goes away or the database fails', async () => {
    const page = newPage();
    await bulk(page, 100_000);
    await until('no connection held', () => checkedOut() === 0);

    // Read to the end: the connection goes back to the pool, as it was (idle, reused).
    const whole = await repo.exportCsv(page, 'whole');
    expect(checkedOut()).toBe(1);
    expect((await text(whole)).length).toBeGreaterThan(1_000_000);
    await until('connection returned after the end', () => checkedOut() === 0);
    const idleAfterEnd = pool.idleCount;
    expect(idleAfterEnd).toBeGreaterThan(0);

    // The downloader goes away after the first chunk: the stream is destroyed, the connection (stuck in a
    // COPY) is closed, the server stops the statement, and the pool works as before.
    const aborted = await repo.exportCsv(page, 'aborted');
    await new Promise<void>((resolve) => aborted.once('data', () => resolve()));
    expect(checkedOut()).toBe(1);
    expect(await runningCopies()).toBe(1);
    aborted.destroy();
    await until('connection released after the abort', () => checkedOut() === 0);
    await until('the COPY stopped on the server', async () => (await runningCopies()) === 0);
    expect(await text(await repo.exportCsv(page, 'again'))).toContain('bulk100000@example.com');

    // The server ends the connection mid-COPY: the stream fails and the connection is let go.
    const failing = await repo.exportCsv(page, 'failing');
    const failed = new Promise<Error>((resolve) => failing.once('error', resolve));
    await new Promise<void>((resolve) => failing.once('data', () => resolve()));
    failing.pause();
    await sql("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'copy (%' and state = 'active'");
    failing.resume();
    expect((await failed).message).toMatch(/terminat/i);
    await until('connection released after the failure', () => checkedOut() === 0);

    // Nothing leaked: half the pool (2 of 4) still serves concurrent exports; one more is refused at once
    // (slow downloads never take the connections sign-ups need), and is served once one has ended.
    const streams = await Promise.all([repo.exportCsv(page, 'many'), repo.exportCsv(page, 'many')]);
    await expect(repo.exportCsv(page, 'one-too-many')).rejects.toThrow('Too many lead exports are running right now. Please try again in a moment.');
    const many = await Promise.all(streams.map(text));
    expect(many.every((csv) => csv.trimEnd().split('\n').length === 1 + 100_000)).toBe(true);
    expect((await text(await repo.exportCsv(page, 'after'))).trimEnd().split('\n')).toHaveLength(1 + 100_000);
    await until('every connection back', () => checkedOut() === 0);
  }, 60_000);
});
