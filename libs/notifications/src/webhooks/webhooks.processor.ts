import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { HookDeliveryService } from '../hooks/hook-delivery.service';
import { HooksRepository } from '../hooks/hooks.repository';
import { DeliverWebhookService } from './deliver-webhook.service';
import { webhookBackoff } from './retry-schedule';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookLogRepository } from './webhook-log.repository';

/**
 * The webhooks queue: lead deliveries to page webhooks and to hook subscriptions (several leads a job, as the
 * outbox relays them), redeliveries, the
 * copy of the pages' endpoints (the pages service's 'webhook-endpoint.changed') and the log clean-up. Retries follow the webhook schedule (the `webhook-schedule` backoff registered here).
 * Concurrency: WEBHOOK_CONCURRENCY, applied at start. While the host's CPU is short, the attempts give way to
 * captures (DeliveryPacer: WEBHOOK_YIELD_PRESSURE, WEBHOOK_YIELD_RATE), which reads the pressure from the start.
 */
@Processor(QueueName.Webhooks, {
  concurrency: QUEUE_SETTINGS[QueueName.Webhooks].concurrency,
  settings: { backoffStrategy: webhookBackoff },
})
export class WebhooksProcessor extends ContractWorker<QueueName.Webhooks> implements OnApplicationBootstrap {
  protected readonly queueName = QueueName.Webhooks;
  protected readonly handlers: JobHandlers<QueueName.Webhooks> = {
    'webhook.deliver': (payload, job, token) => this.delivery.deliverLeads([{ payload }], job, token),
    'webhook.deliver-many': (payload, job, token) => this.delivery.deliverLeads(payload.jobs, job, token),
    'webhook.redeliver': (payload, job, token) => this.delivery.redeliver(payload.messageId, job, token),
    'webhook-endpoint.changed': (payload) => this.endpoints.apply(payload),
    'hook.deliver': (payload, job, token) => this.hooks.deliver([{ payload }], job, token),
    'hook.deliver-many': (payload, job, token) => this.hooks.deliver(payload.jobs, job, token),
    'leads.deleted': async (payload) => {
      const messages = await this.log.eraseLeads(payload.pageId, payload.leadIds);
      const hookMessages = await this.hookRows.eraseLeads(payload.pageId, payload.leadIds);
      getLogger().info({ pageId: payload.pageId, leads: payload.leadIds.length, messages, hookMessages }, 'deleted leads: their deliveries dropped');
    },
    'user.deleted': async (payload) => {
      const endpoints = await this.endpoints.removeOwner(payload.userId);
      const hooks = await this.hookRows.removeOwner(payload.userId);
      getLogger().info({ userId: payload.userId, endpoints, hooks }, 'account deleted: webhook endpoints, hook subscriptions and logs removed');
    },
    'webhook.clean-log': async () => {
      const removed = await this.log.clean();
      const endpoints = await this.endpoints.clean();
      const hookMessages = await this.hooks.clean();
      getLogger().info({ removed, endpoints, hookMessages }, 'webhook log cleaned');
    },
  };

  constructor(
    private readonly delivery: DeliverWebhookService,
    private readonly log: WebhookLogRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly hooks: HookDeliveryService,
    private readonly hookRows: HooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap() {
    this.worker.concurrency = this.config.webhookConcurrency;
    this.delivery.pacer.start();
  }
}
