import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import { QUEUE_SETTINGS, QueueName, type WebhookDisableReason } from '@plink/contracts';
import { LeadsDirectory } from '@plink/leads';
import { PagesDirectory, type WebhookTarget } from '@plink/pages';
import { APP_CONFIG, Outbox, getLogger, type AppConfig } from '@plink/platform';
import { leadCreatedBody, testEventBody } from './lead-created-event';
import { RetryLaterError, parseRetryAfter, retryDelayMs } from './retry-schedule';
import { WebhookLogRepository, type WebhookMessage } from './webhook-log.repository';
import { WebhookSender, type AttemptResult } from './webhook-sender';

/** Ended messages in a row that all failed, after which the endpoint is turned off. */
export const FAILED_MESSAGES_BEFORE_DISABLE = 3;

/** What an HTTP answer or its absence means for the message. */
export type AttemptVerdict = 'delivered' | 'retry' | 'fail' | 'gone';

export function judgeAttempt(attempt: Pick<AttemptResult, 'status'>): AttemptVerdict {
  const status = attempt.status;
  if (status === null) return 'retry'; // timeout, network or DNS error, blocked address
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'fail'; // 1xx, 3xx (redirects are not followed) and the other 4xx
}

/**
 * Delivers webhook messages (the notifications service's webhooks queue): reloads the lead and the page's
 * endpoint at send time (owner still Pro, URL still set and on; a changed URL is used for the messages not yet
 * delivered), signs, sends one attempt, logs it, and decides what follows: delivered; a retry on the schedule
 * (RetryLaterError, see retry-schedule.ts); failed at once; 410 Gone turns the endpoint off. An endpoint that
 * fails every attempt for 24 hours, or whose last 3 messages all failed, is turned off too (the pages service
 * does it and e-mails the owner).
 */
@Injectable()
export class DeliverWebhookService implements OnModuleInit, OnApplicationShutdown {
  readonly sender: WebhookSender;

  constructor(
    private readonly log: WebhookLogRepository,
    private readonly pages: PagesDirectory,
    private readonly leads: LeadsDirectory,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sender = new WebhookSender({ allowPrivate: config.webhookAllowPrivateNetworks, maxSockets: config.webhookConcurrency });
  }

  onModuleInit() {
    if (this.config.webhookAllowPrivateNetworks) {
      getLogger().warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS is on: webhooks may reach loopback and private addresses (development and tests only)');
    }
  }

  onApplicationShutdown() {
    this.sender.close();
  }

  /** A `webhook.deliver` job: the lead's message on its page (created on the first attempt). */
  async deliverLead(pageId: number, leadId: number, job: Job): Promise<void> {
    const existing = await this.log.findByLead(pageId, leadId);
    if (existing?.status === 'delivered' || existing?.status === 'failed') return; // a job run again after it ended
    const target = await this.pages.findWebhookTarget(pageId);
    const stop = this.whyNotSend(target);
    if (stop) {
      if (existing) await this.log.setStatus(existing.id, 'failed', null);
      getLogger().info({ pageId, leadId, reason: stop }, 'webhook not sent');
      return;
    }
    let message = existing;
    if (!message) {
      const lead = await this.leads.findForWebhook(leadId);
      if (!lead) {
        getLogger().info({ pageId, leadId }, 'webhook not sent: the lead is gone');
        return;
      }
      message = await this.log.messageForLead(pageId, leadId, 'lead.created', () => leadCreatedBody(lead, target!));
    }
    await this.attempt(message, target!, job);
  }

  /** A `webhook.redeliver` job: the logged message again, with its own id and body. */
  async redeliver(messageId: string, job: Job): Promise<void> {
    const message = await this.log.findById(messageId);
    if (!message || message.status === 'delivered' || message.status === 'failed') return;
    const target = await this.pages.findWebhookTarget(message.pageId);
    const stop = this.whyNotSend(target);
    if (stop) {
      await this.log.setStatus(message.id, 'failed', null);
      getLogger().info({ pageId: message.pageId, reason: stop }, 'webhook not redelivered');
      return;
    }
    await this.attempt(message, target!, job);
  }

  /** A test event now: one attempt, logged, never retried. */
  async sendTest(target: WebhookTarget): Promise<WebhookMessage> {
    const message = await this.log.createTestMessage(target.pageId, testEventBody(target));
    const attempt = await this.sender.send(target.url!, target.secrets, message);
    const verdict = judgeAttempt(attempt);
    await this.log.recordAttempt(message, attempt, { status: verdict === 'delivered' ? 'delivered' : 'failed', nextAttemptAt: null });
    return message;
  }

  private whyNotSend(target: WebhookTarget | null): string | null {
    if (!target) return 'the page is gone';
    if (!target.ownerIsPremium) return 'the owner is not on Pro';
    if (!target.url) return 'the page has no webhook URL';
    if (!target.enabled) return 'the webhook is turned off';
    if (target.secrets.length === 0) return 'the page has no signing secret';
    return null;
  }

  private async attempt(message: WebhookMessage, target: WebhookTarget, job: Job): Promise<void> {
    const url = target.url!;
    const attempt = await this.sender.send(url, target.secrets, message);
    const verdict = judgeAttempt(attempt);
    const attemptNumber = job.attemptsMade + 1;
    const lastAttempt = attemptNumber >= (job.opts.attempts ?? QUEUE_SETTINGS[QueueName.Webhooks].attempts);
    const logContext = { pageId: target.pageId, messageId: message.id, attempt: attemptNumber, status: attempt.status, error: attempt.error };

    if (verdict === 'delivered') {
      await this.log.recordAttempt(message, attempt, { status: 'delivered', nextAttemptAt: null });
      return;
    }
    if (verdict === 'retry' && !lastAttempt) {
      const delayMs = retryDelayMs(attemptNumber, parseRetryAfter(attempt.retryAfter));
      const disable = (await this.log.failingForADay(target.pageId, target.enabledAt)) ? 'failing' : null;
      await this.log.recordAttempt(message, attempt, { status: disable ? 'failed' : 'failing', nextAttemptAt: disable ? null : new Date(Date.now() + delayMs) }, (tx) => {
        if (disable) this.recordDisable(tx, target, url, disable);
      });
      if (disable) {
        this.outbox.kick();
        throw new UnrecoverableError('webhook endpoint failing for 24 hours: turned off');
      }
      getLogger().info(logContext, 'webhook attempt failed; will retry');
      throw new RetryLaterError(`webhook attempt failed (${attempt.status ?? attempt.error})`, delayMs);
    }
    // Failed for good: 410, another 4xx or 3xx, or the last attempt.
    let disable: WebhookDisableReason | null = verdict === 'gone' ? 'gone' : null;
    await this.log.recordAttempt(message, attempt, { status: 'failed', nextAttemptAt: null });
    if (!disable && !message.test) {
      if (await this.log.lastMessagesFailed(target.pageId, target.enabledAt, FAILED_MESSAGES_BEFORE_DISABLE)) disable = 'exhausted';
      else if (await this.log.failingForADay(target.pageId, target.enabledAt)) disable = 'failing';
    }
    if (disable) {
      await this.log.transactional((tx) => this.recordDisable(tx, target, url, disable));
      this.outbox.kick();
    }
    getLogger().info({ ...logContext, disabled: disable }, 'webhook message failed');
    throw new UnrecoverableError(`webhook message failed (${attempt.status ?? attempt.error})`);
  }

  private recordDisable(tx: Parameters<Outbox['record']>[0], target: WebhookTarget, url: string, reason: WebhookDisableReason): void {
    this.outbox.record(tx, 'pages.disable-webhook', { v: 1, pageId: target.pageId, url, reason });
  }
}
