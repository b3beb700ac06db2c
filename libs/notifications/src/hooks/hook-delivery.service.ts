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
 * A target answering 410 Gone loses its subscription at once.
 */
@Injectable()
export class HookDeliveryService {
  constructor(
    private readonly em: EntityManager,
    private readonly hooks: HooksRepository,
    private readonly outbox: Outbox,
    private readonly webhooks: DeliverWebhookService,
  ) {}

  async fanOut(delivery: JobPayload<'hook.deliver'>): Promise<void> {
    const targets = await this.hooks.forLead(delivery.ownerId, delivery.pageId);
    if (targets.length === 0) return;
    const body = leadCreatedBody(
      { id: delivery.leadId, email: delivery.email, createdAt: new Date(delivery.createdAt), consentAt: delivery.consentAt ? new Date(delivery.consentAt) : null, source: delivery.source },
      { pageId: delivery.pageId, slug: delivery.page.slug, title: delivery.page.title, pageUrl: delivery.page.url },
    );
    await this.em.transactional(async (tx) => {
      for (const hook of targets) {
        const id = hookMessageId(hook.id, delivery.leadId);
        const rows: unknown[] = await tx.execute(
          `insert into notifications.hook_messages (id, hook_id, user_id, lead_id, page_id, body, created_at) values (?, ?, ?, ?, ?, ?, ?)
           on conflict do nothing returning id`,
          [id, hook.id, hook.userId, delivery.leadId, delivery.pageId, body, delivery.createdAt],
        );
        // A job run again finds its messages made: their sends were recorded with them.
        if (rows.length > 0) this.outbox.record(tx, 'hook.send', { v: 1, messageId: id });
      }
    });
  }

  /** One attempt of a hook's message, logged; then delivered, retried on the schedule, or failed (410: the hook goes). */
  async send(messageId: string, job: Job): Promise<void> {
    const rows: MessageRow[] = await this.em.execute('select id, hook_id, body, status from notifications.hook_messages where id = ?', [messageId]);
    const message = rows[0];
    // Removed with its hook, or ended in an earlier run.
    if (!message || message.status === 'delivered' || message.status === 'failed') return;
    const hook = await this.hooks.find(Number(message.hook_id));
    if (!hook) return;
    if (!hook.secret) {
      await this.record(message.id, null, 'failed', null);
      getLogger().warn({ hookId: hook.id }, 'hook not sent: its secret cannot be opened (SESSION_SECRET changed?)');
      return;
    }
    const attempt = await this.webhooks.sender.send(hook.targetUrl, [hook.secret], { id: message.id, body: message.body });
    const verdict = judgeAttempt(attempt);
    const attemptNumber = job.attemptsMade + 1;
    const last = attemptNumber >= (job.opts.attempts ?? QUEUE_SETTINGS[QueueName.Webhooks].attempts);
    const logged = { at: attempt.at.toISOString(), status: attempt.status, error: attempt.error, durationMs: attempt.durationMs };
    const context = { hookId: hook.id, messageId, attempt: attemptNumber, status: attempt.status, error: attempt.error };
    if (verdict === 'delivered') {
      await this.record(message.id, logged, 'delivered', null);
      return;
    }
    if (verdict === 'retry' && !last) {
      const delayMs = retryDelayMs(attemptNumber, parseRetryAfter(attempt.retryAfter));
      await this.record(message.id, logged, 'failing', new Date(Date.now() + delayMs));
      getLogger().info(context, 'hook attempt failed; will retry');
      throw new RetryLaterError(`hook attempt failed (${attempt.status ?? attempt.error}); will retry`, delayMs);
    }
    await this.record(message.id, logged, 'failed', null);
    if (verdict === 'gone') {
      // The tool says the subscription is over (a Zap turned off): it ends now, with its log.
      await this.hooks.removeGone(hook.id);
      getLogger().info(context, 'hook target answered 410 Gone: subscription removed');
      return;
    }
    getLogger().info(context, 'hook message failed');
    throw new UnrecoverableError(`hook message failed (${attempt.status ?? attempt.error})`);
  }

  /** An account deleted: its hook subscriptions and their deliveries go (see HooksRepository.removeOwner). */
  removeOwner(userId: number): Promise<number> {
    return this.hooks.removeOwner(userId);
  }

  /** Leads deleted by their creator: their hook deliveries go, made or not. */
  eraseLeads(pageId: number, leadIds: number[]): Promise<number> {
    return this.hooks.eraseLeads(pageId, leadIds);
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
