import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { getLogger, toApiError } from '@plink/platform';
import { RecordStripeEventService } from '../use-cases/record-stripe-event.service';

/** Largest webhook body taken (Stripe's events are a few kilobytes; an invoice with many lines more). */
export const STRIPE_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/webhooks/stripe: Stripe's webhook endpoint (`{APP_ORIGIN}/api/webhooks/stripe`). A plain Fastify
 * route that gets the body as its exact text (`bodyKind: 'raw-json'`), which the signature covers. Stripe
 * sends JSON with neither Origin nor Sec-Fetch-Site, which the CSRF guard lets through; a browser posting
 * here from another site is refused by it anyway. Answers 200 `{ received: true }` once the event is
 * stored (or was before), 400 for a bad signature; any other failure 500, and Stripe sends the event again.
 */
@Injectable()
export class StripeWebhookRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly record: RecordStripeEventService,
  ) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.post !== 'function') return;
    fastify.post('/api/webhooks/stripe', { bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT, config: { bodyKind: 'raw-json' } }, async (request, reply) => {
      try {
        const recorded = await this.record.execute(typeof request.body === 'string' ? request.body : undefined, request.headers['stripe-signature']);
        return await reply.status(200).header('cache-control', 'no-store').send({ received: true, duplicate: !recorded.stored });
      } catch (err) {
        const { status, message, headers } = toApiError(err);
        if (status >= 500) getLogger().error({ err }, 'stripe webhook failed');
        if (headers) void reply.headers(headers);
        return reply.status(status).send({ message });
      }
    });
  }
}
