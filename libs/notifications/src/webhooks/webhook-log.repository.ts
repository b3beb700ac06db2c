import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import type { WebhookAttemptDto, WebhookDeliveryDto, WebhookDeliveryStatus, WebhookEventType } from '@plink/contracts';
import { nativePoolOf } from '@plink/data';
import type { AttemptResult } from './webhook-sender';

/** Messages kept per page: older ones are dropped as new ones come (and by the daily clean-up). */
export const MESSAGES_KEPT_PER_PAGE = 100;
/** A page's log is trimmed at most this often per process (a burst of leads would otherwise trim on every one). */
const TRIM_EVERY_MS = 2_000;
/** Logs older than this go (the clean-up). */
export const LOG_RETENTION_DAYS = 30;

export interface WebhookMessage {
  id: string;
  pageId: number;
  leadId: number | null;
  eventType: WebhookEventType;
  test: boolean;
  body: string;
  status: WebhookDeliveryStatus;
  /** When the message was made (a lead's: when the lead was captured); the log's time when left out. */
  createdAt?: Date;
  /**
   * Whether the message has its row in the log. A lead's message is written with the outcome of its first
   * attempt (one insert, see {@link WebhookLogRepository.recordAttempts}); its id does not wait for the row
   * (see {@link leadMessageId}).
   */
  logged: boolean;
}

interface MessageRow {
  id: string;
  page_id: number;
  lead_id: number | null;
  event_type: WebhookEventType;
  is_test: boolean;
  body: string;
  status: WebhookDeliveryStatus;
  next_attempt_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  message_id: string;
  attempted_at: Date;
  url: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string | null;
}

/** A lead's message on a page, as a map key. */
export interface LeadKey {
  pageId: number;
  leadId: number;
}

export const leadKey = (key: LeadKey): string => `${key.pageId}:${key.leadId}`;

/** What an attempt leaves the message in. */
export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
}

export interface AttemptRecord {
  message: WebhookMessage;
  attempt: AttemptResult;
  outcome: AttemptOutcome;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `msg_` and 26 base32 characters, one per byte (130 bits of them). */
function messageIdOf(bytes: Uint8Array): string {
  let id = 'msg_';
  for (const byte of bytes.subarray(0, 26)) id += BASE32[byte % 32];
  return id;
}

/** A test event's id: 26 random base32 characters. */
export function newMessageId(): string {
  return messageIdOf(randomBytes(26));
}

/**
 * A lead's message id, the same wherever and whenever it is worked out (a hash of the page and the lead): every
 * attempt of the message carries one `webhook-id`, also when the first attempt's row was never written (the
 * worker stopped between sending and logging) or two runs of a delivery raced.
 */
export function leadMessageId(key: LeadKey): string {
  return messageIdOf(createHash('sha256').update(`lead.created:${key.pageId}:${key.leadId}`).digest());
}

function toMessage(row: MessageRow): WebhookMessage {
  return {
    id: row.id,
    pageId: Number(row.page_id),
    leadId: row.lead_id === null ? null : Number(row.lead_id),
    eventType: row.event_type,
    test: row.is_test,
    body: row.body,
    status: row.status,
    logged: true,
  };
}

/** The statement logging attempts ({@link WebhookLogRepository.recordAttempts}); `json` is its one parameter. */
const recordAttemptsSql = (json: string) => `with v as (
    select * from jsonb_to_recordset(${json}::jsonb) as v(
      message_id text, page_id integer, lead_id integer, event_type text, body text, created_at timestamptz,
      attempted_at timestamptz, url text, http_status integer, error text, duration_ms integer, response_excerpt text,
      succeeded boolean, status text, next_attempt_at timestamptz)
  ), created as (
    insert into notifications.webhook_messages as m (id, page_id, lead_id, event_type, body, created_at, status, next_attempt_at, finished_at)
    select message_id, page_id, lead_id, event_type, body, coalesce(created_at, now()), status, next_attempt_at,
           case when status in ('delivered', 'failed') then now() end
      from v where body is not null
    on conflict (page_id, lead_id) do update
      set status = excluded.status, next_attempt_at = excluded.next_attempt_at, finished_at = excluded.finished_at
  ), attempt as (
    insert into notifications.webhook_attempts (message_id, page_id, attempted_at, url, http_status, error, duration_ms, response_excerpt, succeeded)
    select message_id, page_id, attempted_at, url, http_status, error, duration_ms, response_excerpt, succeeded from v
  )
  update notifications.webhook_messages m
     set status = v.status, next_attempt_at = v.next_attempt_at,
         finished_at = case when v.status in ('delivered', 'failed') then now() end
    from v where v.body is null and m.id = v.message_id`;

/** The notifications service's door to its webhook log tables. */
@Injectable()
export class WebhookLogRepository {
  private readonly trimmedAt = new Map<number, number>();
  /**
   * The ORM's own `pg` pool, for the statement every delivery runs: prepared (parsed and planned once per
   * connection). Measured with `npm run bench` (webhook part, pg_stat_statements): planning the log's
   * statements took nearly as long as running them.
   */
  private readonly pool = nativePoolOf(() => this.em);

  constructor(private readonly em: EntityManager) {}

  /** The messages of these leads on their pages, in one statement (keyed by {@link leadKey}). */
  async findByLeads(keys: LeadKey[]): Promise<Map<string, WebhookMessage>> {
    const found = new Map<string, WebhookMessage>();
    if (keys.length === 0) return found;
    // Planned on each call (not prepared): a plan kept from when the table was small would scan it whole.
    const rows: MessageRow[] = await this.em.execute(
      `select m.* from notifications.webhook_messages m
         join (select distinct page_id, lead_id from jsonb_to_recordset(?::jsonb) as k(page_id integer, lead_id integer)) k using (page_id, lead_id)`,
      [JSON.stringify(keys.map((k) => ({ page_id: k.pageId, lead_id: k.leadId })))],
    );
    for (const row of rows) found.set(leadKey({ pageId: Number(row.page_id), leadId: Number(row.lead_id) }), toMessage(row));
    return found;
  }

  /**
   * Leads their creator deleted ('leads.deleted'): kept as erased, so a delivery of one still queued or waiting
   * for a retry is not sent, and their logged messages (which carry the address) go with their attempts.
   */
  async eraseLeads(pageId: number, leadIds: number[]): Promise<number> {
    const ids = `{${leadIds.map((id) => Math.trunc(id)).join(',')}}`;
    await this.em.execute(
      'insert into notifications.erased_leads (page_id, lead_id) select ?, unnest(?::int[]) on conflict do nothing',
      [pageId, ids],
    );
    const [gone] = await this.em.execute<{ n: number }[]>(
      withTheirAttempts('delete from notifications.webhook_messages where page_id = ? and lead_id = any(?::int[]) returning id'),
      [pageId, ids],
    );
    return Number(gone.n);
  }

  /** Which of these leads were deleted by their creator (see {@link eraseLeads}), as {@link leadKey}s. */
  async erasedAmong(keys: LeadKey[]): Promise<Set<string>> {
    const erased = new Set<string>();
    if (keys.length === 0) return erased;
    const rows: { page_id: number; lead_id: number }[] = await this.em.execute(
      `select e.page_id, e.lead_id from notifications.erased_leads e
         join (select distinct page_id, lead_id from jsonb_to_recordset(?::jsonb) as k(page_id integer, lead_id integer)) k using (page_id, lead_id)`,
      [JSON.stringify(keys.map((k) => ({ page_id: k.pageId, lead_id: k.leadId })))],
    );
    for (const row of rows) erased.add(leadKey({ pageId: Number(row.page_id), leadId: Number(row.lead_id) }));
    return erased;
  }

  /** A lead's message not logged yet: its id and body; its row comes with its first attempt. */
  newLeadMessage(key: LeadKey, body: string, createdAt: Date): WebhookMessage {
    return { id: leadMessageId(key), pageId: key.pageId, leadId: key.leadId, eventType: 'lead.created', test: false, body, status: 'pending', logged: false, createdAt };
  }

  /** A test event's message (never retried). */
  async createTestMessage(pageId: number, body: string): Promise<WebhookMessage> {
    const rows: MessageRow[] = await this.em.execute(
      `insert into notifications.webhook_messages (id, page_id, event_type, is_test, body) values (?, ?, 'lead.created', true, ?) returning *`,
      [newMessageId(), pageId, body],
    );
    await this.trim(pageId);
    return toMessage(rows[0]);
  }

  async findById(id: string): Promise<WebhookMessage | null> {
    const rows: MessageRow[] = await this.em.execute('select * from notifications.webhook_messages where id = ?', [id]);
    return rows[0] ? toMessage(rows[0]) : null;
  }

  /**
   * Logs an attempt and the message's new state: one statement, or with `more` (e.g. an outbox job) one
   * transaction.
   */
  async recordAttempt(message: WebhookMessage, attempt: AttemptResult, outcome: AttemptOutcome, more?: (tx: EntityManager) => void): Promise<void> {
    if (!more) {
      await this.recordAttempts([{ message, attempt, outcome }]);
      return;
    }
    const records = [{ message, attempt, outcome }];
    await this.em.transactional(async (tx) => {
      await this.recordAttempts(records, tx);
      more(tx);
    });
    await this.trimPagesOf(records);
  }

  /**
   * Logs attempts of several messages and each message's new state in one statement (the attempts that
   * concurrent deliveries ended together): a message not logged yet is inserted with it (a lead's first
   * attempt: one insert rather than an insert before sending and an update after), the others updated. Keeps
   * each page's log to its 100 newest messages. With `em`, in that unit of work; else prepared, on its own.
   */
  async recordAttempts(records: readonly AttemptRecord[], em?: EntityManager): Promise<void> {
    if (records.length === 0) return;
    const json = JSON.stringify(
      records.map(({ message, attempt, outcome }) => ({
        message_id: message.id,
        page_id: message.pageId,
        lead_id: message.leadId,
        event_type: message.eventType,
        body: message.logged ? null : message.body,
        created_at: message.logged ? null : (message.createdAt?.toISOString() ?? null),
        attempted_at: attempt.at.toISOString(),
        url: attempt.url.slice(0, 2048),
        http_status: attempt.status,
        error: storableText(attempt.error, 300),
        duration_ms: attempt.durationMs,
        response_excerpt: storableText(attempt.response, 500),
        succeeded: outcome.status === 'delivered',
        status: outcome.status,
        next_attempt_at: outcome.nextAttemptAt?.toISOString() ?? null,
      })),
    );
    if (em) await em.execute(recordAttemptsSql('?'), [json]);
    else await (await this.pool()).query({ name: 'webhook_record_attempts', text: recordAttemptsSql('$1'), values: [json] });
    // In a unit of work, the caller trims after it has committed (the new rows are not visible before).
    if (!em) await this.trimPagesOf(records);
  }

  private async trimPagesOf(records: readonly AttemptRecord[]): Promise<void> {
    for (const pageId of new Set(records.filter((r) => !r.message.test).map((r) => r.message.pageId))) await this.trim(pageId);
  }

  /** Runs `work` in one transaction (e.g. recording an outbox job). */
  async transactional(work: (tx: EntityManager) => void | Promise<void>): Promise<void> {
    await this.em.transactional(async (tx) => {
      await work(tx);
    });
  }

  /** A message's state; a final one (delivered, failed) records when it ended. */
  async setStatus(id: string, status: WebhookDeliveryStatus, nextAttemptAt: Date | null, em: EntityManager = this.em): Promise<void> {
    const final = status === 'delivered' || status === 'failed';
    await em.execute(
      `update notifications.webhook_messages set status = ?, next_attempt_at = ?, finished_at = ${final ? 'now()' : 'null'} where id = ?`,
      [status, nextAttemptAt, id],
    );
  }

  /**
   * Whether the page's endpoint has failed every attempt for 24 hours: attempts since `since` (when its URL
   * started receiving) include a failure at least 24 h old and no success after it.
   */
  async failingForADay(pageId: number, since: Date | null): Promise<boolean> {
    const rows: { failing: boolean }[] = await this.em.execute(
      `with recent as (
         select a.attempted_at, a.succeeded
           from notifications.webhook_messages m join notifications.webhook_attempts a on a.message_id = m.id
          where m.page_id = ? and a.attempted_at >= coalesce(?::timestamptz, '-infinity')
       ), last_success as (select max(attempted_at) as at from recent where succeeded)
       select exists(
         select 1 from recent, last_success
          where not recent.succeeded and recent.attempted_at <= now() - interval '24 hours'
            and (last_success.at is null or recent.attempted_at > last_success.at)
       ) as failing`,
      [pageId, since],
    );
    return !!rows[0]?.failing;
  }

  /** Whether the page's last `count` ended lead messages since `since` all failed. */
  async lastMessagesFailed(pageId: number, since: Date | null, count: number): Promise<boolean> {
    const rows: { status: WebhookDeliveryStatus }[] = await this.em.execute(
      `select status from notifications.webhook_messages
        where page_id = ? and not is_test and status in ('delivered', 'failed') and finished_at >= coalesce(?::timestamptz, '-infinity')
        order by finished_at desc limit ?`,
      [pageId, since, count],
    );
    return rows.length === count && rows.every((r) => r.status === 'failed');
  }

  /** The page's newest messages with their attempts (oldest attempt first). */
  async deliveries(pageId: number, limit = MESSAGES_KEPT_PER_PAGE): Promise<WebhookDeliveryDto[]> {
    const messages: MessageRow[] = await this.em.execute(
      'select * from notifications.webhook_messages where page_id = ? order by created_at desc, id desc limit ?',
      [pageId, limit],
    );
    if (messages.length === 0) return [];
    const attempts: AttemptRow[] = await this.em.execute(
      `select message_id, attempted_at, url, http_status, error, duration_ms, response_excerpt from notifications.webhook_attempts
        where message_id in (${messages.map(() => '?').join(', ')}) order by attempted_at, id`,
      messages.map((m) => m.id),
    );
    const byMessage = new Map<string, WebhookAttemptDto[]>();
    for (const a of attempts) {
      const list = byMessage.get(a.message_id) ?? [];
      list.push({
        at: new Date(a.attempted_at).toISOString(),
        url: a.url,
        status: a.http_status,
        error: a.error,
        durationMs: a.duration_ms,
        response: a.response_excerpt,
      });
      byMessage.set(a.message_id, list);
    }
    return messages.map((m) => toDeliveryDto(m, byMessage.get(m.id) ?? []));
  }

  async delivery(pageId: number, id: string): Promise<WebhookDeliveryDto | null> {
    const message = await this.findById(id);
    if (!message || message.pageId !== pageId) return null;
    return (await this.deliveries(pageId)).find((d) => d.id === id) ?? null;
  }

  /** Drops the page's messages beyond its 100 newest, with their attempts; at most every 2 s per page. */
  async trim(pageId: number): Promise<void> {
    const now = Date.now();
    if (now - (this.trimmedAt.get(pageId) ?? 0) < TRIM_EVERY_MS) return;
    this.trimmedAt.set(pageId, now);
    if (this.trimmedAt.size > 10_000) this.trimmedAt.clear();
    await this.em.execute(
      withTheirAttempts(`delete from notifications.webhook_messages where id in (
         select id from notifications.webhook_messages where page_id = ? order by created_at desc, id desc offset ?) returning id`),
      [pageId, MESSAGES_KEPT_PER_PAGE],
    );
  }

  /**
   * The clean-up: messages older than 30 days, and any beyond a page's 100 newest, with their attempts; then
   * any attempt whose message is gone (none, unless a write was cut off halfway). Answers how many messages went.
   */
  async clean(): Promise<number> {
    const [old] = await this.em.execute<{ n: number }[]>(
      withTheirAttempts(`delete from notifications.webhook_messages where created_at < now() - interval '${LOG_RETENTION_DAYS} days' returning id`),
    );
    const [extra] = await this.em.execute<{ n: number }[]>(
      withTheirAttempts(`delete from notifications.webhook_messages m using (
         select id, row_number() over (partition by page_id order by created_at desc, id desc) as n from notifications.webhook_messages
       ) ranked where m.id = ranked.id and ranked.n > ? returning m.id`),
      [MESSAGES_KEPT_PER_PAGE],
    );
    await this.em.execute(
      'delete from notifications.webhook_attempts a where not exists (select 1 from notifications.webhook_messages m where m.id = a.message_id)',
    );
    await this.em.execute(`delete from notifications.erased_leads where erased_at < now() - interval '${LOG_RETENTION_DAYS} days'`);
    return Number(old.n) + Number(extra.n);
  }
}

/**
 * A statement deleting messages (`… returning id`) made to delete their attempts with them (the attempts have no
 * foreign key that would), answering how many messages went (`n`).
 */
function withTheirAttempts(deleteMessages: string): string {
  return `with gone as (${deleteMessages}),
    attempts as (delete from notifications.webhook_attempts where message_id in (select id from gone))
    select count(*)::int as n from gone`;
}

/**
 * A receiver's text as PostgreSQL can store it: at most `max` characters, without NUL characters or halves of a
 * surrogate pair (a cut may split one), which text columns and JSON parameters refuse.
 */
export function storableText(text: string | null, max: number): string | null {
  if (text === null) return null;
  return text
    .slice(0, max)
    .replaceAll('\u0000', '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function toDeliveryDto(row: MessageRow, attempts: WebhookAttemptDto[]): WebhookDeliveryDto {
  return {
    id: row.id,
    eventType: row.event_type,
    test: row.is_test,
    createdAt: new Date(row.created_at).toISOString(),
    status: row.status,
    attempts,
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
  };
}
