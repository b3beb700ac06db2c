import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { LeadsReadModule } from '@plink/leads';
import { PagesReadModule } from '@plink/pages';
import { WebhooksController } from './http/webhooks.controller';
import { EmailProcessor } from './processors/email.processor';
import { CleanWebhookLogScheduler } from './webhooks/clean-webhook-log.scheduler';
import { DeliverWebhookService } from './webhooks/deliver-webhook.service';
import { WebhookLogRepository } from './webhooks/webhook-log.repository';
import { WebhooksProcessor } from './webhooks/webhooks.processor';

/** The notifications service's workers: the e-mail queue and the webhooks queue (with its daily log clean-up). */
@Module({
  imports: [IdentityReadModule, PagesReadModule, LeadsReadModule],
  providers: [EmailProcessor, WebhookLogRepository, DeliverWebhookService, WebhooksProcessor, CleanWebhookLogScheduler],
})
export class NotificationsWorkerModule {}

/** The webhook calls of a page's owner (mounted by the gateway): the endpoint, its log, a test event, a redelivery. */
@Module({
  imports: [IdentityReadModule, PagesReadModule, LeadsReadModule],
  controllers: [WebhooksController],
  providers: [WebhookLogRepository, DeliverWebhookService],
})
export class WebhooksHttpModule {}
