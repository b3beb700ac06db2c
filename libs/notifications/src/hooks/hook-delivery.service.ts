import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError, type Job } from 'bullmq';
import { QUEUE_SETTINGS, QueueName, type HookDeliveryDto, type JobPayload } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { DeliverWebhookService, judgeAttempt } from '../webhooks/deliver-webhook.service';
import { leadCreatedBody } from '../webhooks/lead-created-event';
import { RetryLaterError, parseRetryAfter, retryDelayMs } from '../webhooks/retry-schedule';
import { LOG_RETENTION_DAYS } from '../webhooks/webhook-log.repository';
import { HooksRepository, hookMessageId } from './hooks.repository';

interface MessageRow {
  id: string;
  hook_id: number;
  body: string;
  status: HookDeliveryDto['status'];
}

/**
 * Delivers leads to hook subscriptions with the page webhooks' engine: the same `lead.created` body, the same
 * sender (Standard Webhooks signature, here with the hook's own secret; the outbound address rule judged on
 * the address connected to; timeouts), the same verdicts and retry schedule. Whether a lead goes to hooks at
 * all was decided at its capture (the owner on Pro, with hooks), as for the page webhook. A `hook.deliver` job
 * makes one message per matching hook (its id worked out from the hook and the lead) and records a
 * `hook.send` job for each in the same transaction, so two subscriptions are retried, and end, each on its own.
 * A target answering 410 Gone loses its subscription at once. Both jobs are relayed in groups (`…-many`), as
 * the page webhooks' are: one job per lead cost more than the delivery.
 */
@Injectable()
export class HookDeliveryService {
  constructor(
    private readonly em: EntityManager,
    private readonly hooks: HooksRepository,
    private readonly outbox: Outbox,
    private readonly webhooks: DeliverWebhookService,
  ) {}

  /**
   * The messages of several leads (a relayed group: one transaction): one per lead and matching hook, each with
   * its `hook.send` job recorded beside it. A group run again finds its messages made and records nothing more.
   */
  async fanOut(deliveries: readonly JobPayload<'hook.deliver'>[]): Promise<void> {
    const targetsOf = new Map<string, Awaited<ReturnType<HooksRepository['forLead']>>>();
    for (const delivery of deliveries) {
      const key = `${delivery.ownerId}:${delivery.pageId}`;
      if (!targetsOf.has(key)) targetsOf.set(key, await this.hooks.forLead(delivery.ownerId, delivery.pageId));
    }
    const rows = deliveries.flatMap((delivery) => {
      const targets = targetsOf.get(`${delivery.ownerId}:${delivery.pageId}`) ?? [];
      if (targets.length === 0) return [];
      const body = leadCreatedBody(
        { id: delivery.leadId, email: delivery.email, createdAt: new Date(delivery.createdAt), consentAt: delivery.consentAt ? new Date(delivery.consentAt) : null, source: delivery.source },
        { pageId: delivery.pageId, slug: delivery.page.slug, title: delivery.page.title, pageUrl: delivery.page.url },
      );
      return targets.map((hook) => ({ id: hookMessageId(hook.id, delivery.leadId), hook_id: hook.id, user_id: hook.userId, lead_id: delivery.leadId, page_id: delivery.pageId, body, created_at: delivery.createdAt }));
    });
    if (rows.length === 0) return;
    await this.em.transactional(async (tx) => {
      const made: { id: string }[] = await tx.execute(
        `insert into notifications.hook_messages (id, hook_id, user_id, lead_id, page_id, body, created_at)
         select id, hook_id, user_id, lead_id, page_id, body, created_at from jsonb_to_recordset(?::jsonb)
           as v(id text, hook_id integer, user_id integer, lead_id integer, page_id integer, body text, created_at timestamptz)
         on conflict do nothing returning id`,
        [JSON.stringify(rows)],
      );
      for (const { id } of made) this.outbox.record(tx, 'hook.send', { v: 1, messageId: id });
    });
  }

  /**
   * One attempt of each message (a relayed group, side by side), logged; each then delivered, failed (410: its
   * hook goes), or to be retried: the job is retried on the schedule, no sooner than the latest any of them asked
   * for, and the messages that ended are not sent again.
   */
  async send(messageIds: readonly string[], job: Job): Promise<void> {
    const messages: MessageRow[] = await this.em.execute(
      `select id, hook_id, body, status from notifications.hook_messages where id in (${messageIds.map(() => '?').join(', ')}) and status not in ('delivered', 'failed')`,
      [...messageIds],
    );
    const attemptNumber = job.attemptsMade + 1;
    const last = attemptNumber >= (job.opts.attempts ?? QUEUE_SETTINGS[QueueName.Webhooks].attempts);
    const outcomes = await Promise.all(messages.map((message) => this.attempt(message, attemptNumber, last)));
    const retries = outcomes.filter((o): o is number => typeof o === 'number');
    if (retries.length > 0) throw new RetryLaterError(`${retries.length} hook attempt(s) failed; will retry`, Math.max(...retries));
    if (outcomes.length > 0 && outcomes.every((o) => o === 'failed')) throw new UnrecoverableError(`${outcomes.length} hook message(s) failed`);
  }

  /** One message's attempt: 'delivered', 'failed' (for good, or its hook gone), or the wait before its retry. */
  private async attempt(message: MessageRow, attemptNumber: number, last: boolean): Promise<'delivered' | 'failed' | 'skipped' | number> {
    // Removed with its hook meanwhile: nothing to send.
    const hook = await this.hooks.find(Number(message.hook_id));
    if (!hook) return 'skipped';
    if (!hook.secret) {
      await this.record(message.id, null, 'failed', null);
      getLogger().warn({ hookId: hook.id }, 'hook not sent: its secret cannot be opened (SESSION_SECRET changed?)');
      return 'failed';
    }
    const attempt = await this.webhooks.sender.send(hook.targetUrl, [hook.secret], { id: message.id, body: message.body });
    const verdict = judgeAttempt(attempt);
    const logged = { at: attempt.at.toISOString(), status: attempt.status, error: attempt.error, durationMs: attempt.durationMs };
    const context = { hookId: hook.id, messageId: message.id, attempt: attemptNumber, status: attempt.status, error: attempt.error };
    if (verdict === 'delivered') {
      await this.record(message.id, logged, 'delivered', null);
      return 'delivered';
    }
    if (verdict === 'retry' && !last) {
      const delayMs = retryDelayMs(attemptNumber, parseRetryAfter(attempt.retryAfter));
      await this.record(message.id, logged, 'failing', new Date(Date.now() + delayMs));
      getLogger().info(context, 'hook attempt failed; will retry');
      return delayMs;
    }
    await this.record(message.id, logged, 'failed', null);
    if (verdict === 'gone') {
      // The tool says the subscription is over (a Zap turned off): it ends now, with its log.
      await this.hooks.removeGone(hook.id);
      getLogger().info(context, 'hook target answered 410 Gone: subscription removed');
    } else {
      getLogger().info(context, 'hook message failed');
    }
    return 'failed';
  }

  /** Drops hook messages older than the webhook log's retention (the hourly clean-up). */
  async clean(): Promise<number> {
    const rows: unknown[] = await this.em.execute(`delete from notifications.hook_messages where created_at < now() - interval '${LOG_RETENTION_DAYS} days' returning 1`);
    return rows.length;
  }

  private async record(id: string, attempt: HookDeliveryDto['attempts'][number] | null, status: HookDeliveryDto['status'], nextAttemptAt: Date | null): Promise<void> {
    await this.em.execute(
      `update notifications.hook_messages
          set status = ?, next_attempt_at = ?, attempts = case when ?::jsonb is null then attempts else attempts || jsonb_build_array(?::jsonb) end
        where id = ?`,
      [status, nextAttemptAt, attempt ? JSON.stringify(attempt) : null, attempt ? JSON.stringify(attempt) : null, id],
    );
  }
}
