import { Body, Controller, Header, Headers, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { BillingMessages } from '@plink/contracts';
import { ApiDoc } from '@plink/http';
import { RecordStripeEventService } from '../use-cases/record-stripe-event.service';

/** Largest webhook body taken (Stripe's events are a few kilobytes; an invoice with many lines more). */
export const STRIPE_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/webhooks/stripe: Stripe's webhook endpoint (`{APP_ORIGIN}/api/webhooks/stripe`). The route gets
 * the body as its exact text (`bodyKind: 'raw-json'`), which the signature covers, with a body limit of its
 * own. Stripe sends JSON with neither Origin nor Sec-Fetch-Site, which the CSRF guard lets through; a browser
 * posting here from another site is refused by it anyway. Answers 200 `{ received, duplicate }` once the
 * event is stored (or was before), 400 for a bad signature (the API's `{ message }`); any other failure 500,
 * and Stripe sends the event again. Its body and answer are described in the API reference by JSON Schema:
 * the event is Stripe's, checked by its signature, not by a zod schema.
 */
@ApiTags('Billing')
@Controller('api/webhooks')
export class StripeWebhookController {
  constructor(private readonly record: RecordStripeEventService) {}

  @ApiDoc({
    // The id clients have known this call by since it was first published (not the handler's name).
    operationId: 'post_api_webhooks_stripe',
    summary: "Stripe's webhook intake",
    description:
      'Stripe sends its events here (configure this URL in Stripe). The `Stripe-Signature` must verify against `STRIPE_WEBHOOK_SECRET` over the exact body; the event is then stored once by its id and applied by the billing worker.',
    body: { contentType: 'application/json', schema: { type: 'object', description: 'A Stripe event, exactly as Stripe sends it' } },
    ok: {
      description: 'Received (`duplicate`: an event already stored)',
      schema: { type: 'object', properties: { received: { type: 'boolean', enum: [true] }, duplicate: { type: 'boolean' } }, required: ['received', 'duplicate'] },
    },
    errors: { 400: BillingMessages.webhookSignatureInvalid },
  })
  @ApiHeader({ name: 'Stripe-Signature', required: true, schema: { type: 'string' } })
  @Post('stripe')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RouteConfig({ bodyKind: 'raw-json', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT })
  async receive(@Body() body: unknown, @Headers('stripe-signature') signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const recorded = await this.record.execute(typeof body === 'string' ? body : undefined, signature);
    return { received: true, duplicate: !recorded.stored };
  }
}
