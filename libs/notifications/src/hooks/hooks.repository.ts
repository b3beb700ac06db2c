import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import { ApiTokenMessages, type CreatedHookDto, type HookDeliveryDto, type HookDto, type HookEvent, type HookWithDeliveriesDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { seal, unseal } from '@plink/crypto';
import { Outbox } from '@plink/queue';

/** What a hook's secret is sealed for (under SESSION_SECRET), as the pages service seals the page webhooks'. */
const HOOK_SECRET_SEAL = 'hook-secret';
/** Deliveries the Automations card shows per hook. */
const DELIVERIES_SHOWN = 10;

interface HookRow {
  id: number;
  user_id: number;
  event: HookEvent;
  target_url: string;
  page_id: number | null;
  secret: string;
  created_at: Date;
}

/** A hook as its sender needs it: its target and the secret that signs (opened). */
export interface HookTarget {
  id: number;
  userId: number;
  targetUrl: string;
  secret: string | null;
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

  async create(userId: number, input: { event: HookEvent; targetUrl: string; pageId: number | null }): Promise<CreatedHookDto> {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
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

  /** The user's hooks a lead of this page goes to (those of the page, and those of every page). */
  async forLead(userId: number, pageId: number): Promise<HookTarget[]> {
    const rows: HookRow[] = await this.em.execute(
      `select id, user_id, target_url, secret from notifications.hooks
        where user_id = ? and event = 'lead.created' and (page_id is null or page_id = ?) order by id`,
      [userId, pageId],
    );
    return rows.map((row) => this.toTarget(row));
  }

  async find(hookId: number): Promise<HookTarget | null> {
    const rows: HookRow[] = await this.em.execute('select id, user_id, target_url, secret from notifications.hooks where id = ?', [hookId]);
    return rows[0] ? this.toTarget(rows[0]) : null;
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

  private toTarget(row: Pick<HookRow, 'id' | 'user_id' | 'target_url' | 'secret'>): HookTarget {
    let secret: string | null;
    try {
      secret = unseal(this.config.sessionSecret, row.secret, HOOK_SECRET_SEAL);
    } catch {
      secret = null; // sealed under another SESSION_SECRET: the tool must subscribe again
    }
    return { id: Number(row.id), userId: Number(row.user_id), targetUrl: row.target_url, secret };
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
