import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import DataLoader from 'dataloader';
import { QUEUE_SETTINGS, QueueName, type JobPayload, type WebhookDisableReason } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Outbox } from '@plink/queue';
import { CpuPressure, getLogger, runWithCorrelation, warnThrottled } from '@plink/observability';
import { DeliveredLog } from './delivered-log';
import { DeliveryPacer } from './delivery-pacer';
import { EndpointGate, type GateLimits } from './endpoint-gate';
import { leadCreatedBody, testEventBody, type EventPage } from './lead-created-event';
import { RetryLaterError, parseRetryAfter, retryDelayMs } from './retry-schedule';
import { WebhookEndpointsRepository, type WebhookEndpoint } from './webhook-endpoints.repository';
import { WebhookLogRepository, leadKey, type WebhookMessage } from './webhook-log.repository';
import { WebhookSender, type AttemptResult } from './webhook-sender';

/** Ended messages in a row that all failed, after which the endpoint is turned off. */
export const FAILED_MESSAGES_BEFORE_DISABLE = 3;

/*
 * Batches: under load the send-time checks of the deliveries that start together are read in one pass (see
 * `batches` below), and delivered messages are logged together by DeliveredLog. With the leads relayed to the
 * queue in groups (`webhook.deliver-many`) and one log write per delivered lead, `npm run bench` (webhook
 * part, one page, 2 cores) measured 0.08 ms of CPU per webhook in the notifications process (0.22 before),
 * and PostgreSQL 0.04 ms per lead against 0.03 without webhooks (0.20-0.22 before).
 */
/** The most deliveries one batch takes. */
const MAX_BATCH = 200;

/**
 * A lead's delivery can start before the service's copy has heard of the page's endpoint at all, or of its
 * latest change: the page's 'webhook-endpoint.changed' and the lead's delivery run side by side on the queue
 * when a visitor submits right after the URL is saved or turned on (or that change's message is being
 * retried): the page's facts and its endpoint reach their two copies by separate messages, each one hop. The delivery then waits, back in the delayed set without using an attempt, and looks again:
 * after a quarter of its age, at least 0.5 s and at most a minute (about 80 looks in the hour it waits at
 * most from when the lead was recorded).
 */
export const ENDPOINT_WAIT_MAX_MS = 60 * 60_000;

/** How long a delivery waiting for its page's endpoint waits before it looks again, by the job's age. */
export function endpointWaitMs(ageMs: number): number {
  return Math.min(60_000, Math.max(500, Math.round(ageMs / 4)));
}

/**
 * How the process's attempts are shared (see EndpointGate): an owner gets at most half of WEBHOOK_CONCURRENCY,
 * so another creator's webhook always finds a slot free, whatever one creator's receivers do; an endpoint
 * gets at most WEBHOOK_ENDPOINT_CONCURRENCY of its owner's share.
 */
export function gateLimits(config: Pick<AppConfig, 'webhookConcurrency' | 'webhookEndpointConcurrency' | 'webhookResponseTimeoutMs'>): GateLimits {
  const perOwner = Math.max(1, Math.floor(config.webhookConcurrency / 2));
  return {
    concurrency: config.webhookConcurrency,
    perOwner,
    perEndpoint: Math.min(config.webhookEndpointConcurrency, perOwner),
    stallMs: 500,
    timeoutsBeforePark: ENDPOINT_TIMEOUTS_BEFORE_PARK,
    parkMs: 60_000,
    maxParkMs: 15 * 60_000,
    responseTimeoutMs: config.webhookResponseTimeoutMs,
  };
}

/** Attempts to one endpoint that time out in a row, after which it is parked (see EndpointGate). */
export const ENDPOINT_TIMEOUTS_BEFORE_PARK = 3;

/** Why a delivery stops when the endpoint's secret cannot be used (sealed under another SESSION_SECRET). */
const NO_SIGNING_SECRET = 'the page has no signing secret';

/** A `webhook.deliver` job: the lead and the page it tells about. */
type LeadDelivery = JobPayload<'webhook.deliver'>;

/** One lead's delivery in a delivery job, with the correlation id of the request that captured the lead (when known). */
export interface LeadDeliveryMember {
  payload: LeadDelivery;
  correlationId?: string;
}

/**
 * What became of one message in a job: it ended (delivered, failed for good, or not sent), is to be tried
 * again after a wait, or waits without an attempt: for this service's copy of its page's endpoint, or for a
 * slot for its endpoint (`deferred`: the endpoint is busy or parked).
 */
type Outcome = DeliveryOutcome<WebhookMessage>;

/** What became of one message in a delivery job (a page webhook's, or a hook subscription's: `M`). */
export type DeliveryOutcome<M> =
  | { ended: 'delivered' | 'skipped' }
  | { ended: 'failed'; reason: string }
  | { retryInMs: number; reason: string }
  | { waitMs: number; deferred?: { message: M; why: 'parked' | 'busy' } };

/**
 * How a delivery job ends, from its messages' outcomes: when some are to be tried again, the job is retried
 * (no sooner than the latest any of them asked for: a receiver's Retry-After is honoured; the messages that
 * waited for a slot go with it); else when some wait (for the copy of their page's endpoint, or for a slot for
 * their endpoint), the job goes back to the delayed set without using an attempt (until the soonest look), after
 * `beforeWait`; else it is done, or failed when its messages all failed for good. Hook deliveries end alike.
 */
export async function settleDeliveryJob<M>(
  outcomes: DeliveryOutcome<M>[],
  job: Job,
  token: string | undefined,
  beforeWait: (waits: { waitMs: number; deferred?: { message: M; why: 'parked' | 'busy' } }[]) => Promise<void> = async () => undefined,
): Promise<void> {
  const retries = outcomes.flatMap((o) => ('retryInMs' in o ? [o] : []));
  if (retries.length > 0) {
    const reason = retries.length === 1 ? retries[0].reason : `${retries.length} webhook attempts failed`;
    throw new RetryLaterError(`${reason}; will retry`, Math.max(...retries.map((r) => r.retryInMs)));
  }
  const waits = outcomes.flatMap((o) => ('waitMs' in o ? [o] : []));
  if (waits.length > 0) {
    const soonest = Math.min(...waits.map((w) => w.waitMs));
    const deferred = waits.flatMap((w) => (w.deferred ? [w.deferred] : []));
    const reason =
      deferred.length > 0
        ? `${deferred.length} webhook message(s) waiting for their endpoint (${deferred.some((d) => d.why === 'parked') ? 'parked' : 'busy'})`
        : "waiting for this service's copy of the page's webhook endpoint to catch up";
    // Not an attempt: the messages were not sent. Without a token (a job run outside a worker) the wait takes one.
    if (!token) throw new RetryLaterError(reason, soonest);
    await beforeWait(waits);
    await job.moveToDelayed(Date.now() + soonest, token);
    throw new DelayedError(reason);
  }
  const failed = outcomes.flatMap((o) => ('ended' in o && o.ended === 'failed' ? [o.reason] : []));
  if (failed.length > 0 && failed.length === outcomes.length) {
    throw new UnrecoverableError(failed.length === 1 ? failed[0] : `${failed.length} webhook messages failed`);
  }
}

/**
 * A run of a lead's delivery job. On a job's first run the log is not read: it holds nothing for the lead
 * until an attempt ends. Later runs (a retry, a job run again after its worker stopped) read it, to go on with
 * the message or leave one that ended alone.
 */
interface DeliveryRun {
  delivery: LeadDelivery;
  firstRun: boolean;
}

/** Where an attempt goes: the endpoint's URL now, and the secrets that sign now. */
type AttemptTarget = Pick<WebhookEndpoint, 'pageId' | 'ownerId' | 'url' | 'secrets' | 'enabledAt'>;

/**
 * What a lead's delivery does after the send-time checks: send this message, nothing (and why), or wait for the
 * copy to hear of the page's endpoint.
 */
type Prepared = { message: WebhookMessage; target: WebhookEndpoint } | { skip: string | null } | { wait: true };

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
 * Delivers webhook messages (the notifications service's webhooks queue): the lead and its page come in the
 * job; the endpoint is read at send time from the service's own copy (owner still Pro, URL still set and on; a
 * changed URL is used for the messages not yet delivered; see WebhookEndpointsRepository, fed by the pages
 * service), signs, sends one attempt, logs it, and decides what follows: delivered; a retry on the schedule
 * (RetryLaterError, see retry-schedule.ts); failed at once; 410 Gone turns the endpoint off. An endpoint that
 * fails every attempt for 24 hours, or whose last 3 messages all failed, is turned off too (the pages service
 * does it and e-mails the owner).
 */
@Injectable()
export class DeliverWebhookService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  readonly sender: WebhookSender;
  /** Who may send now: the process's, each owner's and each endpoint's attempts under way, and parked endpoints. */
  readonly gate: EndpointGate;
  /** Whether attempts give way to captures now (the host's CPU short), and at what rate: the gate asks it. */
  readonly pacer: DeliveryPacer;
  /** The send-time checks of the lead deliveries that start together. */
  private readonly preparing: DataLoader<DeliveryRun, Prepared>;
  /** The delivered messages, logged together within a moment (see DeliveredLog). */
  private readonly deliveredLog: DeliveredLog;

  constructor(
    private readonly log: WebhookLogRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly outbox: Outbox,
    @Inject(MikroORM) orm: MikroORM,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sender = new WebhookSender({
      allowPrivate: config.webhookAllowPrivateNetworks,
      maxSockets: config.webhookConcurrency,
      connectTimeoutMs: config.webhookConnectTimeoutMs,
      responseTimeoutMs: config.webhookResponseTimeoutMs,
    });
    this.pacer = new DeliveryPacer(new CpuPressure(config.cpuPressureFile), { threshold: config.webhookYieldPressure, ratePerSecond: config.webhookYieldRate });
    // A job may carry many leads: the process's attempts stay within the concurrency a job at a time had, and
    // an attempt's timeout starts when it is sent, not while it waits its turn.
    // Page webhooks and hook subscriptions share it: one owner's hanging receiver holds up neither kind.
    this.gate = new EndpointGate(
      gateLimits(config),
      {
        parked: ({ pageId, hookId, ownerId, host, timeouts, until }) =>
          getLogger().warn(
            { ...(hookId !== undefined ? { hookId } : { pageId }), ownerId, host, timeouts, until: until.toISOString() },
            `${hookId !== undefined ? 'hook target' : 'webhook endpoint'} parked: its attempts keep timing out; its messages wait, without using attempts, until it is tried again`,
          ),
        resumed: ({ pageId, hookId, ownerId, host }) =>
          getLogger().info(
            { ...(hookId !== undefined ? { hookId } : { pageId }), ownerId, host },
            `${hookId !== undefined ? 'hook target' : 'webhook endpoint'} answers again: no longer parked`,
          ),
      },
      { pacer: this.pacer },
    );
    this.preparing = batches((keys) => this.prepareLeads(keys), orm);
    this.deliveredLog = new DeliveredLog(
      (records) => RequestContext.create(orm.em, () => this.log.recordAttempts(records)),
      (err, lines) => warnThrottled('webhook-log', err, 'webhook log: delivered messages not logged yet; will try again', { lines }),
    );
  }

  onModuleInit() {
    if (this.config.webhookAllowPrivateNetworks) {
      getLogger().warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS is on: webhooks may reach loopback and private addresses (development and tests only)');
    }
  }

  /** Before the database closes: the delivered messages waiting to be logged are written, later ones as they come. */
  async beforeApplicationShutdown() {
    await this.deliveredLog.close();
  }

  onApplicationShutdown() {
    this.gate.close();
    this.pacer.close();
    this.sender.close();
  }

  /**
   * A `webhook.deliver` or `webhook.deliver-many` job: each lead's message on its page, sent side by side (at
   * most WEBHOOK_CONCURRENCY attempts at once in the process, shared out by endpoint and owner: see
   * EndpointGate; a message whose endpoint is parked or stalled waits in the delayed set). The checks are made in a batch with the
   * deliveries that start at the same moment (see {@link prepareLeads}); a failed attempt is logged at once, a
   * delivered message within a moment (DeliveredLog). Then the job ends as its messages do (see
   * {@link settle}): retried when one of them is to be tried again (the ones that ended are not sent again),
   * put back to wait when one waits for the copy of its page's endpoint or for a slot for its endpoint, else
   * done.
   */
  async deliverLeads(members: readonly LeadDeliveryMember[], job: Job, token?: string): Promise<void> {
    // A job's first run: nothing can be logged for its leads yet (the log is written after an attempt).
    const firstRun = job.attemptsMade === 0 && (job.attemptsStarted ?? 0) <= 1;
    // A later run reads the log to leave the messages that ended alone: the deliveries still to be logged first.
    if (!firstRun) await this.deliveredLog.flush();
    const outcomes = await Promise.all(
      members.map(({ payload, correlationId }) =>
        correlationId
          ? runWithCorrelation(correlationId, () => this.deliverLead(payload, job, firstRun, !!token))
          : this.deliverLead(payload, job, firstRun, !!token),
      ),
    );
    await this.settle(outcomes, job, token);
  }

  /** One lead's message: checked, then one attempt, or why not. */
  private async deliverLead(delivery: LeadDelivery, job: Job, firstRun: boolean, canWait: boolean): Promise<Outcome> {
    const prepared = await this.preparing.load({ delivery, firstRun });
    if ('wait' in prepared) {
      // Counted from when the lead was captured (its job may have been put back to wait before).
      const age = Date.now() - Date.parse(delivery.createdAt);
      if (canWait && age < ENDPOINT_WAIT_MAX_MS) return { waitMs: endpointWaitMs(age) };
      getLogger().warn({ pageId: delivery.pageId, leadId: delivery.leadId }, "webhook not sent: this service's copy of the page's endpoint never caught up");
      return { ended: 'skipped' };
    }
    if ('skip' in prepared) {
      if (prepared.skip) getLogger().info({ pageId: delivery.pageId, leadId: delivery.leadId, reason: prepared.skip }, 'webhook not sent');
      return { ended: 'skipped' };
    }
    return this.attempt(prepared.message, prepared.target, job);
  }

  /** How a delivery job ends (see {@link settleDeliveryJob}); a deferred message's next attempt shown first. */
  private async settle(outcomes: Outcome[], job: Job, token?: string): Promise<void> {
    await settleDeliveryJob(outcomes, job, token, (waits) => this.showNextAttempts(waits));
  }

  /**
   * The send-time checks of lead deliveries, read together: their messages (one statement) and the pages'
   * endpoints now (one statement: URL still set and on). Whether the owner's plan allows the lead its webhook
   * was decided at the capture, by the plan in force then: it is not judged again here. A new message's body is made from
   * the job, and its row written with its first attempt. A message that already ended is not sent again; one
   * whose endpoint stopped is marked failed.
   */
  private async prepareLeads(runs: readonly DeliveryRun[]): Promise<Prepared[]> {
    const keys = runs.map((run) => run.delivery);
    // A lead its creator deleted is not sent, whether its delivery is new or waiting for a retry.
    const erased = await this.log.erasedAmong(keys);
    const existing = await this.log.findByLeads(runs.filter((run) => !run.firstRun).map((run) => run.delivery));
    const ended = (message: WebhookMessage | undefined) => message?.status === 'delivered' || message?.status === 'failed';
    const { endpoints, unknown } = await this.endpoints.lookup(keys.filter((key) => !ended(existing.get(leadKey(key)))).map((key) => key.pageId));
    const results = new Map<string, Prepared>();
    for (const key of keys) {
      const id = leadKey(key);
      const message = existing.get(id);
      if (results.has(id)) continue;
      if (erased.has(id)) {
        results.set(id, { skip: 'the lead was deleted' });
        continue;
      }
      if (ended(message)) {
        results.set(id, { skip: null }); // a job run again after it ended
        continue;
      }
      if (unknown.has(key.pageId)) {
        results.set(id, { wait: true });
        continue;
      }
      const endpoint = endpoints.get(key.pageId) ?? null;
      const stop = this.whyNotSend(endpoint);
      // A secret that cannot be opened is not a matter of the copy catching up.
      if (stop && stop !== NO_SIGNING_SECRET && copyIsBehind(endpoint, key)) {
        results.set(id, { wait: true });
        continue;
      }
      if (stop) {
        if (message) await this.log.setStatus(message.id, 'failed', null);
        results.set(id, { skip: stop });
      } else if (message) {
        results.set(id, { message, target: endpoint! });
      } else {
        // Logged with the outcome of this first attempt.
        results.set(id, { message: this.log.newLeadMessage(key, bodyOf(key), new Date(key.createdAt)), target: endpoint! });
      }
    }
    return keys.map((key) => results.get(leadKey(key))!);
  }

  /**
   * The Deliveries panel shows a retried message's next attempt: one deferred past it shows when it waits
   * until now (a message not yet logged shows nothing until its first attempt).
   */
  private async showNextAttempts(waits: { waitMs: number; deferred?: { message: WebhookMessage } }[]): Promise<void> {
    for (const { waitMs, deferred } of waits) {
      if (deferred?.message.logged && deferred.message.status === 'failing') {
        await this.log.setStatus(deferred.message.id, 'failing', new Date(Date.now() + waitMs));
      }
    }
  }

  /** A `webhook.redeliver` job: the logged message again, with its own id and body. */
  async redeliver(messageId: string, job: Job, token?: string): Promise<void> {
    const message = await this.log.findById(messageId);
    if (!message || message.status === 'delivered' || message.status === 'failed') return;
    const endpoint = await this.endpoints.find(message.pageId);
    const stop = this.whyNotSend(endpoint);
    if (stop) {
      await this.log.setStatus(message.id, 'failed', null);
      getLogger().info({ pageId: message.pageId, reason: stop }, 'webhook not redelivered');
      return;
    }
    await this.settle([await this.attempt(message, endpoint!, job)], job, token);
  }

  /** A test event now: one attempt, logged, never retried. */
  async sendTest(target: EventPage & Pick<AttemptTarget, 'url' | 'secrets'>): Promise<WebhookMessage> {
    const message = await this.log.createTestMessage(target.pageId, testEventBody(target));
    const attempt = await this.sender.send(target.url!, target.secrets, message);
    const verdict = judgeAttempt(attempt);
    await this.log.recordAttempt(message, attempt, { status: verdict === 'delivered' ? 'delivered' : 'failed', nextAttemptAt: null });
    return message;
  }

  private whyNotSend(target: WebhookEndpoint | null): string | null {
    if (!target) return 'the page is gone';
    if (!target.url) return 'the page has no webhook URL';
    if (!target.enabled) return 'the webhook is turned off';
    if (target.secrets.length === 0) return NO_SIGNING_SECRET;
    return null;
  }

  /** One attempt of a message, logged, and what follows for it (the endpoint turned off when it must be). */
  private async attempt(message: WebhookMessage, target: AttemptTarget, job: Job): Promise<Outcome> {
    const url = target.url!;
    const slot = await this.gate.acquire({ pageId: target.pageId, ownerId: target.ownerId, host: URL.canParse(url) ? new URL(url).host : url });
    if ('deferMs' in slot) return { waitMs: slot.deferMs, deferred: { message, why: slot.why } };
    const attempt = await this.sender.send(url, target.secrets, message);
    slot.release({ timedOut: !!attempt.timedOut, answered: attempt.status !== null });
    const verdict = judgeAttempt(attempt);
    const attemptNumber = job.attemptsMade + 1;
    const lastAttempt = attemptNumber >= (job.opts.attempts ?? QUEUE_SETTINGS[QueueName.Webhooks].attempts);
    const logContext = { pageId: target.pageId, messageId: message.id, attempt: attemptNumber, status: attempt.status, error: attempt.error };

    if (verdict === 'delivered') {
      this.deliveredLog.add({ message, attempt, outcome: { status: 'delivered', nextAttemptAt: null } });
      return { ended: 'delivered' };
    }
    // The failure checks below read the log: the deliveries waiting to be logged are written first.
    await this.deliveredLog.flush();
    if (verdict === 'retry' && !lastAttempt) {
      const delayMs = retryDelayMs(attemptNumber, parseRetryAfter(attempt.retryAfter));
      const disable = (await this.log.failingForADay(target.pageId, target.enabledAt)) ? 'failing' : null;
      await this.log.recordAttempt(message, attempt, { status: disable ? 'failed' : 'failing', nextAttemptAt: disable ? null : new Date(Date.now() + delayMs) }, (tx) => {
        if (disable) this.recordDisable(tx, target, url, disable);
      });
      if (disable) {
        getLogger().info({ ...logContext, disabled: disable }, 'webhook message failed');
        return { ended: 'failed', reason: 'webhook endpoint failing for 24 hours: turned off' };
      }
      getLogger().info(logContext, 'webhook attempt failed; will retry');
      return { retryInMs: delayMs, reason: `webhook attempt failed (${attempt.status ?? attempt.error})` };
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
    }
    getLogger().info({ ...logContext, disabled: disable }, 'webhook message failed');
    return { ended: 'failed', reason: `webhook message failed (${attempt.status ?? attempt.error})` };
  }

  private recordDisable(tx: Parameters<Outbox['record']>[0], target: AttemptTarget, url: string, reason: WebhookDisableReason): void {
    this.outbox.record(tx, 'pages.disable-webhook', { v: 1, pageId: target.pageId, url, reason });
  }
}

/**
 * The copy of the endpoint is older than the page's facts the capture read (the pages service publishes both
 * with one version per change): the change the capture saw (a URL saved, the webhook turned on) has not
 * reached this service yet, so what stops the delivery is stale, and the lead waits for the copy instead of
 * being dropped. A copy as new as the facts or newer (the URL cleared after the capture) is believed.
 */
function copyIsBehind(endpoint: WebhookEndpoint | null, delivery: LeadDelivery): boolean {
  return !!endpoint && delivery.pageVersion > 0 && endpoint.seenAt.getTime() < delivery.pageVersion;
}

/** The `lead.created` body of a lead delivery, from what the job carries (the lead and the page the visitor saw). */
function bodyOf(delivery: LeadDelivery): string {
  return leadCreatedBody(
    { id: delivery.leadId, email: delivery.email, createdAt: new Date(delivery.createdAt), consentAt: delivery.consentAt ? new Date(delivery.consentAt) : null, source: delivery.source },
    { pageId: delivery.pageId, slug: delivery.page.slug, title: delivery.page.title, pageUrl: delivery.page.url },
  );
}

/**
 * Calls batched as a group commit (dataloader, without its cache), each batch in an ORM context of its own: a
 * call while no batch of this kind runs starts one at once (no wait at rest); calls that come while one runs
 * wait for it and then go together, so under load a batch takes what arrived during the previous one's round
 * trips. When a batch fails, each of its calls is tried alone, so one bad entry (a value the database
 * refuses) fails only its own job, not the deliveries that shared its batch.
 */
function batches<K, V>(run: (keys: readonly K[]) => Promise<V[]>, orm: MikroORM): DataLoader<K, V> {
  const inContext = (keys: readonly K[]) => RequestContext.create(orm.em, () => run(keys));
  let running = false;
  const waiting: (() => void)[] = [];
  const dispatchWhenFree = (dispatch: () => void) => {
    if (running) waiting.push(dispatch);
    else setImmediate(dispatch);
  };
  return new DataLoader<K, V>(
    async (keys) => {
      running = true;
      try {
        return await inContext(keys);
      } catch (err) {
        if (keys.length === 1) return [err as Error];
        return await Promise.all(keys.map((key) => inContext([key]).then((values) => values[0], (one: unknown) => one as Error)));
      } finally {
        running = false;
        const following = waiting.shift();
        if (following) dispatchWhenFree(following);
      }
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: dispatchWhenFree },
  );
}
