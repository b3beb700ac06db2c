import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'bullmq';
import { QUEUE_SETTINGS, QueueName, type HookDeliveryDto, type JobPayload } from '@plink/contracts';
import { nativePoolOf } from '@plink/data';
import { getLogger, runWithCorrelation } from '@plink/observability';
import { DeliverWebhookService, judgeAttempt, settleDeliveryJob, type DeliveryOutcome } from '../webhooks/deliver-webhook.service';
import { leadCreatedBody } from '../webhooks/lead-created-event';
import { parseRetryAfter, retryDelayMs } from '../webhooks/retry-schedule';
import { LOG_RETENTION_DAYS, WebhookLogRepository, leadKey } from '../webhooks/webhook-log.repository';
import { HooksRepository, hookMessageId, hooksOfLead, type HookTarget } from './hooks.repository';

/** A `hook.deliver` job: a lead of a Pro owner with hooks, and the page it tells about. */
type HookLeadDelivery = JobPayload<'hook.deliver'>;

/** One lead's delivery in a hook delivery job, with the correlation id of the request that captured the lead. */
export interface HookDeliveryMember {
  payload: HookLeadDelivery;
  correlationId?: string;
}

/** One hook's message of one lead: its id (worked out from the hook and the lead), and whether it was logged as failing. */
interface HookMessage {
  id: string;
  hook: HookTarget;
  delivery: HookLeadDelivery;
  body: string;
  failing: boolean;
}

/** What a message's run writes to its row: the attempt made (if any), and its status after it. */
interface MessageRecord {
  message: HookMessage;
  attempt: HookDeliveryDto['attempts'][number] | null;
  status: HookDeliveryDto['status'];
  nextAttemptAt: Date | null;
}

/** One message's outcome, and what its row is to record. */
interface Attempted {
  outcome: DeliveryOutcome<HookMessage>;
  record: MessageRecord | null;
  gone?: HookTarget;
}

/**
 * Delivers leads to hook subscriptions with the page webhooks' engine: the same `lead.created` body, the same
 * sender (Standard Webhooks signature, here with the hook's own secrets; the outbound address rule judged on
 * the address connected to; timeouts), the same verdicts, retry schedule and per-target share of the
 * process's attempts (EndpointGate: a target that hangs is parked and its messages wait, holding up nobody).
 *
 * One stage, as the page webhooks: a `hook.deliver(-many)` job reads the owners' hooks (one statement for the
 * group, secrets opened once), makes one message per lead and matching hook (its id worked out from the hook
 * and the lead, so every run names it alike), attempts them side by side and records their attempts in one
 * statement (the message's row is written with its first attempt). A retry of the job attempts only the
 * messages that did not end. Whether a lead goes to hooks at all was decided at its capture (the owner on Pro,
 * with hooks). A target answering 410 Gone loses its subscription at once; a lead its creator deleted is never
 * sent. (Two stages, a message row and a `hook.send` job each, cost the database and the process about four
 * times a page webhook's per lead, measured with `npm run bench`.)
 */
@Injectable()
export class HookDeliveryService {
  /** The ORM's own `pg` pool: the statements every delivery group runs are prepared (see WebhookLogRepository). */
  private readonly pool = nativePoolOf(() => this.em);

  constructor(
    private readonly em: EntityManager,
    private readonly hooks: HooksRepository,
    private readonly log: WebhookLogRepository,
    private readonly webhooks: DeliverWebhookService,
  ) {}

  /** A `hook.deliver` or `hook.deliver-many` job: its leads' messages attempted, recorded, and the job settled. */
  async deliver(members: readonly HookDeliveryMember[], job: Job, token?: string): Promise<void> {
    const deliveries = members.map((m) => m.payload);
    // A job's first run: none of its messages can be logged yet (a row is written with its first attempt).
    const firstRun = job.attemptsMade === 0 && (job.attemptsStarted ?? 0) <= 1;
    const [hooks, erased] = await Promise.all([this.hooks.forOwners(deliveries.map((d) => d.ownerId)), this.log.erasedAmong(deliveries)]);
    const seen = new Set<string>();
    const messages = members.flatMap(({ payload, correlationId }) => {
      if (erased.has(leadKey(payload))) return []; // deleted by its creator: never sent
      if (seen.has(leadKey(payload))) return []; // a lead's job relayed twice: its messages once
      seen.add(leadKey(payload));
      const targets = hooksOfLead(hooks, payload.ownerId, payload.pageId);
      if (targets.length === 0) return [];
      const body = bodyOf(payload);
      return targets.map((hook) => ({ message: { id: hookMessageId(hook.id, payload.leadId), hook, delivery: payload, body, failing: false }, correlationId }));
    });
    const logged = firstRun ? new Map<string, HookDeliveryDto['status']>() : await this.statuses(messages.map((m) => m.message.id));
    const attemptNumber = job.attemptsMade + 1;
    const last = attemptNumber >= (job.opts.attempts ?? QUEUE_SETTINGS[QueueName.Webhooks].attempts);
    const attempted = await Promise.all(
      messages
        .filter(({ message }) => {
          const status = logged.get(message.id);
          message.failing = status === 'failing';
          return status !== 'delivered' && status !== 'failed'; // a job run again after they ended
        })
        .map(({ message, correlationId }) =>
          correlationId ? runWithCorrelation(correlationId, () => this.attempt(message, attemptNumber, last)) : this.attempt(message, attemptNumber, last),
        ),
    );
    await this.record(attempted.flatMap((a) => (a.record ? [a.record] : [])));
    for (const hook of new Map(attempted.flatMap((a) => (a.gone ? [[a.gone.id, a.gone] as const] : []))).values()) {
      // The tool says the subscription is over (a Zap turned off): it ends now, with its log.
      await this.hooks.removeGone(hook.id);
      getLogger().info({ hookId: hook.id }, 'hook target answered 410 Gone: subscription removed');
    }
    await settleDeliveryJob(
      attempted.map((a) => a.outcome),
      job,
      token,
      // The Automations card shows a retried message's next attempt: one deferred past it shows when it waits until.
      (waits) =>
        this.record(
          waits.flatMap(({ waitMs, deferred }) =>
            deferred?.message.failing ? [{ message: deferred.message, attempt: null, status: 'failing' as const, nextAttemptAt: new Date(Date.now() + waitMs) }] : [],
          ),
        ),
    );
  }

  /** The statuses of the messages logged already (a later run of a job). */
  private async statuses(ids: string[]): Promise<Map<string, HookDeliveryDto['status']>> {
    if (ids.length === 0) return new Map();
    const { rows } = await (await this.pool()).query<{ id: string; status: HookDeliveryDto['status'] }>({
      name: 'hook_message_statuses',
      text: 'select id, status from notifications.hook_messages where id = any($1::text[])',
      values: [`{${ids.join(',')}}`],
    });
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  /** One message's attempt, when its target has a slot (else it waits), and what follows for it. */
  private async attempt(message: HookMessage, attemptNumber: number, last: boolean): Promise<Attempted> {
    const hook = message.hook;
    if (hook.secrets.length === 0) {
      getLogger().warn({ hookId: hook.id }, 'hook not sent: its secret cannot be opened (SESSION_SECRET changed?)');
      return { outcome: { ended: 'failed', reason: 'the hook has no signing secret' }, record: { message, attempt: null, status: 'failed', nextAttemptAt: null } };
    }
    const url = hook.targetUrl;
    const slot = await this.webhooks.gate.acquire({ hookId: hook.id, ownerId: hook.userId, host: URL.canParse(url) ? new URL(url).host : url });
    if ('deferMs' in slot) return { outcome: { waitMs: slot.deferMs, deferred: { message, why: slot.why } }, record: null };
    const attempt = await this.webhooks.sender.send(url, hook.secrets, { id: message.id, body: message.body });
    slot.release({ timedOut: !!attempt.timedOut, answered: attempt.status !== null });
    const verdict = judgeAttempt(attempt);
    const logged = { at: attempt.at.toISOString(), status: attempt.status, error: attempt.error, durationMs: attempt.durationMs };
    const context = { hookId: hook.id, messageId: message.id, attempt: attemptNumber, status: attempt.status, error: attempt.error };
    if (verdict === 'delivered') return { outcome: { ended: 'delivered' }, record: { message, attempt: logged, status: 'delivered', nextAttemptAt: null } };
    if (verdict === 'retry' && !last) {
      const delayMs = retryDelayMs(attemptNumber, parseRetryAfter(attempt.retryAfter));
      getLogger().info(context, 'hook attempt failed; will retry');
      return {
        outcome: { retryInMs: delayMs, reason: `hook attempt failed (${attempt.status ?? attempt.error})` },
        record: { message, attempt: logged, status: 'failing', nextAttemptAt: new Date(Date.now() + delayMs) },
      };
    }
    if (verdict !== 'gone') getLogger().info(context, 'hook message failed');
    return {
      outcome: { ended: 'failed', reason: `hook message failed (${attempt.status ?? attempt.error})` },
      record: { message, attempt: logged, status: 'failed', nextAttemptAt: null },
      gone: verdict === 'gone' ? hook : undefined,
    };
  }

  /**
   * The messages' rows, in one statement: a new one written with its first attempt, a logged one given its
   * attempt and status. A row whose hook was removed meanwhile, or whose lead was deleted, is not written;
   * one that ended is left alone.
   */
  private async record(records: MessageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map(({ message, attempt, status, nextAttemptAt }) => ({
      id: message.id,
      hook_id: message.hook.id,
      user_id: message.hook.userId,
      lead_id: message.delivery.leadId,
      page_id: message.delivery.pageId,
      body: message.body,
      created_at: message.delivery.createdAt,
      status,
      next_attempt_at: nextAttemptAt?.toISOString() ?? null,
      attempts: attempt ? [attempt] : [],
    }));
    await (await this.pool()).query({
      name: 'hook_record_attempts',
      text: `insert into notifications.hook_messages as m (id, hook_id, user_id, lead_id, page_id, body, created_at, status, next_attempt_at, attempts)
       select v.id, v.hook_id, v.user_id, v.lead_id, v.page_id, v.body, v.created_at, v.status, v.next_attempt_at, v.attempts
         from jsonb_to_recordset($1::jsonb) as v(id text, hook_id integer, user_id integer, lead_id integer, page_id integer, body text,
                                                created_at timestamptz, status text, next_attempt_at timestamptz, attempts jsonb)
        where exists (select 1 from notifications.hooks h where h.id = v.hook_id)
          and not exists (select 1 from notifications.erased_leads e where e.page_id = v.page_id and e.lead_id = v.lead_id)
       on conflict (id) do update set status = excluded.status, next_attempt_at = excluded.next_attempt_at, attempts = m.attempts || excluded.attempts
        where m.status not in ('delivered', 'failed')`,
      values: [JSON.stringify(rows)],
    });
  }

  /** Drops hook messages older than the webhook log's retention (the hourly clean-up). */
  async clean(): Promise<number> {
    const rows: unknown[] = await this.em.execute(`delete from notifications.hook_messages where created_at < now() - interval '${LOG_RETENTION_DAYS} days' returning 1`);
    return rows.length;
  }
}

/** The `lead.created` body of a lead (the page webhooks' body), from what the job carries. */
function bodyOf(delivery: HookLeadDelivery): string {
  return leadCreatedBody(
    { id: delivery.leadId, email: delivery.email, createdAt: new Date(delivery.createdAt), consentAt: delivery.consentAt ? new Date(delivery.consentAt) : null, source: delivery.source },
    { pageId: delivery.pageId, slug: delivery.page.slug, title: delivery.page.title, pageUrl: delivery.page.url },
  );
}
