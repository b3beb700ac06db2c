import { Body, Controller, Header, Headers, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { RecordStripeEventService } from '../use-cases/record-stripe-event.service';

/** Largest webhook body taken (Stripe's events are a few kilobytes; an invoice with many lines more). */
export const STRIPE_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/webhooks/stripe: Stripe's webhook endpoint (`{APP_ORIGIN}/api/webhooks/stripe`). The route gets
 * the body as its exact text (`bodyKind: 'raw-json'`), which the signature covers, with a body limit of its
 * own. Stripe sends JSON with neither Origin nor Sec-Fetch-Site, which the CSRF guard lets through; a browser
 * posting here from another site is refused by it anyway. Answers 200 `{ received, duplicate }` once the
 * event is stored (or was before), 400 for a bad signature (the API's `{ message }`); any other failure 500,
 * and Stripe sends the event again. Described in the API reference by the gateway (its raw body has no
 * zod schema).
 */
@Controller('api/webhooks')
export class StripeWebhookController {
  constructor(private readonly record: RecordStripeEventService) {}

  @Post('stripe')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RouteConfig({ bodyKind: 'raw-json', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT })
  async receive(@Body() body: unknown, @Headers('stripe-signature') signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const recorded = await this.record.execute(typeof body === 'string' ? body : undefined, signature);
    return { received: true, duplicate: !recorded.stored };
  }
}
