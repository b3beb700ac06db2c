import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { ApiTokenMessages, WEBHOOK_SECRET_GRACE_MS, type CreatedHookDto, type HookDeliveryDto, type HookDto, type HookEvent, type HookWithDeliveriesDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { newWebhookSecret, seal, unseal } from '@plink/crypto';
import { nativePoolOf } from '@plink/data';
import { Outbox } from '@plink/queue';

/** What a hook's secret is sealed for (under SESSION_SECRET), as the pages service seals the page webhooks'. */
const HOOK_SECRET_SEAL = 'hook-secret';
/** Deliveries the Automations card shows per hook. */
const DELIVERIES_SHOWN = 10;
/** Opened secrets kept in memory (by their sealed value), so a busy hook's is not opened for every group. */
const OPENED_SECRETS_KEPT = 1_000;

interface HookRow {
  id: number;
  user_id: number;
  event: HookEvent;
  target_url: string;
  page_id: number | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
}

/** A hook as its sender needs it: its target and the secrets that sign now (opened). */
export interface HookTarget {
  id: number;
  userId: number;
  targetUrl: string;
  /** Its page (null: every page of the owner). */
  pageId: number | null;
  /**
   * The secrets that sign now: the current one first, and the one before the last rotation during its 24 hours.
   * Empty when the current one cannot be opened (sealed under another SESSION_SECRET).
   */
  secrets: string[];
}

export const toHookDto = (row: Pick<HookRow, 'id' | 'event' | 'target_url' | 'page_id'>): HookDto => ({
  id: Number(row.id),
  event: row.event,
  target_url: row.target_url,
  page_id: row.page_id === null ? null : Number(row.page_id),
});

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A hook message's id (`webhook-id`): worked out from the hook and the lead, so every run names it alike. */
export function hookMessageId(hookId: number, leadId: number): string {
  const bytes = createHash('sha256').update(`hook:lead.created:${hookId}:${leadId}`).digest();
  let id = 'msg_';
  for (const byte of bytes.subarray(0, 26)) id += BASE32[byte % 32];
  return id;
}


/** The hooks of `hooks` (an owner's, see HooksRepository.forOwners) a lead of this owner's page goes to. */
export function hooksOfLead(hooks: readonly HookTarget[], ownerId: number, pageId: number): HookTarget[] {
  return hooks.filter((hook) => hook.userId === ownerId && (hook.pageId === null || hook.pageId === pageId));
}

/**
 * The hook subscriptions (notifications.hooks) made through `/api/v1/hooks`. Every change publishes the user's
 * hook count ('hooks.changed') in its transaction, so the leads service knows whether a capture has hooks to
 * send to, without asking.
 */
@Injectable()
export class HooksRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The ORM's own `pg` pool: every delivery group's lookup is a prepared statement (see WebhookLogRepository). */
  private readonly pool = nativePoolOf(() => this.em);
  /** Opened secrets by their sealed value (opening costs a key derivation and a decryption). */
  private readonly opened = new Map<string, string | null>();

  async create(userId: number, input: { event: HookEvent; targetUrl: string; pageId: number | null }): Promise<CreatedHookDto> {
    const secret = newWebhookSecret();
    return this.em.transactional(async (tx) => {
      const version = await this.nextVersion(tx, userId);
      const rows: HookRow[] = await tx.execute(
        'insert into notifications.hooks (user_id, event, target_url, page_id, secret) values (?, ?, ?, ?, ?) returning id, event, target_url, page_id',
        [userId, input.event, input.targetUrl, input.pageId, seal(this.config.sessionSecret, secret, HOOK_SECRET_SEAL)],
      );
      await this.announce(tx, userId, version);
      return { ...toHookDto(rows[0]), secret };
    });
  }

  async list(userId: number, targetUrl?: string): Promise<HookDto[]> {
    const rows: HookRow[] = await this.em.execute(
      `select id, event, target_url, page_id from notifications.hooks where user_id = ? ${targetUrl !== undefined ? 'and target_url = ?' : ''} order by id`,
      targetUrl !== undefined ? [userId, targetUrl] : [userId],
    );
    return rows.map(toHookDto);
  }

  /** The user's hook (404 for another's, as if it did not exist), removed with its deliveries. */
  async remove(userId: number, hookId: number): Promise<void> {
    const removed = await this.em.transactional(async (tx) => {
      const version = await this.nextVersion(tx, userId);
      const rows: unknown[] = await tx.execute('delete from notifications.hooks where id = ? and user_id = ? returning id', [hookId, userId]);
      if (rows.length === 0) return false;
      await this.announce(tx, userId, version);
      return true;
    });
    if (!removed) throw new NotFoundException({ message: ApiTokenMessages.hookNotFound });
  }

  /**
   * The user deleted their account ('user.deleted'): every hook subscription with its deliveries, and the user's
   * version row; answers how many hooks went. Nothing is announced: the leads service drops its count of the
   * owner's hooks on the same event. Safe to repeat.
   */
  async removeOwner(userId: number): Promise<number> {
    return this.em.fork().transactional(async (tx) => {
      const removed: unknown[] = await tx.execute('delete from notifications.hooks where user_id = ? returning id', [userId]);
      await tx.execute('delete from notifications.hook_messages where user_id = ?', [userId]);
      await tx.execute('delete from notifications.hook_versions where user_id = ?', [userId]);
      return removed.length;
    });
  }

  /**
   * A creator deleted some leads ('leads.deleted'): their hook deliveries go, so one not made yet is never made
   * (a delivery whose message is gone sends nothing). Answers how many went.
   */
  async eraseLeads(pageId: number, leadIds: number[]): Promise<number> {
    const removed: unknown[] = await this.em
      .fork()
      .execute('delete from notifications.hook_messages where page_id = ? and lead_id = any(?::int[]) returning id', [pageId, `{${leadIds.map((id) => Math.trunc(id)).join(',')}}`]);
    return removed.length;
  }

  /**
   * The user's hook gets a new secret (404 for another's, as if it did not exist), answered once; the one before
   * keeps signing beside it for 24 hours, so the tool can switch without losing a delivery. A second rotation
   * within those hours replaces the one before with the secret it rotates out.
   */
  async rotateSecret(userId: number, hookId: number): Promise<CreatedHookDto> {
    const secret = newWebhookSecret();
    const rows: HookRow[] = await this.em.execute(
      `update notifications.hooks
          set previous_secret = secret, previous_secret_until = now() + make_interval(secs => ?), secret = ?
        where id = ? and user_id = ? returning id, event, target_url, page_id`,
      [WEBHOOK_SECRET_GRACE_MS / 1000, seal(this.config.sessionSecret, secret, HOOK_SECRET_SEAL), hookId, userId],
    );
    if (rows.length === 0) throw new NotFoundException({ message: ApiTokenMessages.hookNotFound });
    return { ...toHookDto(rows[0]), secret };
  }

  /** A target answered 410 Gone: its subscription ends at once. */
  async removeGone(hookId: number): Promise<void> {
    await this.em.transactional(async (tx) => {
      const rows: { user_id: number }[] = await tx.execute('select user_id from notifications.hooks where id = ?', [hookId]);
      if (rows.length === 0) return;
      const userId = Number(rows[0].user_id);
      const version = await this.nextVersion(tx, userId);
      await tx.execute('delete from notifications.hooks where id = ?', [hookId]);
      await this.announce(tx, userId, version);
    });
  }

  /**
   * The `lead.created` hooks of these owners, in one statement (a delivery job's group): a lead goes to those
   * of its page and those of every page of its owner (see {@link hooksOfLead}). Secrets opened once per value.
   */
  async forOwners(ownerIds: readonly number[]): Promise<HookTarget[]> {
    if (ownerIds.length === 0) return [];
    const { rows } = await (await this.pool()).query<HookRow>({
      name: 'hooks_for_owners',
      text: `select id, user_id, target_url, page_id, secret, previous_secret, previous_secret_until from notifications.hooks
              where user_id = any($1::int[]) and event = 'lead.created' order by id`,
      values: [`{${[...new Set(ownerIds)].map((id) => Math.trunc(id)).join(',')}}`],
    });
    const now = Date.now();
    return rows.map((row) => this.toTarget(row, now));
  }

  /** The user's hooks with their latest deliveries (Settings → Automations). */
  async withDeliveries(userId: number): Promise<HookWithDeliveriesDto[]> {
    const hooks: HookRow[] = await this.em.execute(
      'select id, event, target_url, page_id, created_at from notifications.hooks where user_id = ? order by id',
      [userId],
    );
    if (hooks.length === 0) return [];
    const messages: { id: string; hook_id: number; lead_id: number; created_at: Date; status: HookDeliveryDto['status']; attempts: HookDeliveryDto['attempts'] }[] =
      await this.em.execute(
        `select m.id, m.hook_id, m.lead_id, m.created_at, m.status, m.attempts
           from notifications.hooks h cross join lateral (
             select * from notifications.hook_messages m where m.hook_id = h.id order by m.created_at desc limit ${DELIVERIES_SHOWN}
           ) m
          where h.user_id = ?`,
        [userId],
      );
    return hooks.map((hook) => ({
      ...toHookDto(hook),
      createdAt: new Date(hook.created_at).toISOString(),
      deliveries: messages
        .filter((m) => Number(m.hook_id) === Number(hook.id))
        .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())
        .map((m) => ({ id: m.id, leadId: Number(m.lead_id), createdAt: new Date(m.created_at).toISOString(), status: m.status, attempts: m.attempts })),
    }));
  }

  private toTarget(row: Pick<HookRow, 'id' | 'user_id' | 'target_url' | 'page_id' | 'secret' | 'previous_secret' | 'previous_secret_until'>, now: number): HookTarget {
    const current = this.open(row.secret);
    const previous =
      current && row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until).getTime() > now ? this.open(row.previous_secret) : null;
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      targetUrl: row.target_url,
      pageId: row.page_id === null ? null : Number(row.page_id),
      // Sealed under another SESSION_SECRET: nothing signs, the tool must subscribe again.
      secrets: [current, previous].filter((secret): secret is string => secret !== null),
    };
  }

  private open(sealed: string): string | null {
    if (this.opened.has(sealed)) return this.opened.get(sealed)!;
    let secret: string | null;
    try {
      secret = unseal(this.config.sessionSecret, sealed, HOOK_SECRET_SEAL);
    } catch {
      secret = null;
    }
    if (this.opened.size >= OPENED_SECRETS_KEPT) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(sealed, secret);
    return secret;
  }

  /** One more change of the user's hooks (its row lock orders the user's changes). */
  private async nextVersion(tx: EntityManager, userId: number): Promise<number> {
    const rows: { version: number }[] = await tx.execute(
      `insert into notifications.hook_versions as v (user_id, version) values (?, 1)
       on conflict (user_id) do update set version = v.version + 1 returning version`,
      [userId],
    );
    return Number(rows[0].version);
  }

  private async announce(tx: EntityManager, userId: number, version: number): Promise<void> {
    const rows: { n: string }[] = await tx.execute('select count(*) as n from notifications.hooks where user_id = ?', [userId]);
    this.outbox.publish(tx, 'hooks.changed', { v: 1, userId, hooks: Number(rows[0].n), version });
  }
}
