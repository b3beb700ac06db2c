import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import Stripe from 'stripe';
import { BillingMessages } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { getLogger } from '@plink/observability';

/** Each call to Stripe gives up after this long (the SDK's default is 80 s, far longer than a user waits). */
export const STRIPE_TIMEOUT_MS = 10_000;
/** Retries of a call that failed on the network or with a 409/5xx (the SDK sends them with one idempotency key). */
export const STRIPE_NETWORK_RETRIES = 2;

/** The SDK's options for STRIPE_API_URL (a Stripe-compatible server); none for Stripe itself. */
export function stripeServerOptions(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * The Stripe SDK client of this process, or none without STRIPE_SECRET_KEY (then `api` throws the 503
 * "Payments are not configured on this server."). Shared by the subscription calls and the billing worker.
 */
@Injectable()
export class StripeConnection {
  private readonly client: Stripe | null;
  readonly priceId: string | null;
  readonly webhookSecret: string | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const stripe = config.stripe;
    this.priceId = stripe?.priceId ?? null;
    this.webhookSecret = stripe?.webhookSecret ?? null;
    this.client = stripe
      ? new Stripe(stripe.secretKey, {
          ...stripeServerOptions(stripe.apiUrl),
          maxNetworkRetries: STRIPE_NETWORK_RETRIES,
          timeout: STRIPE_TIMEOUT_MS,
          telemetry: false,
          appInfo: { name: 'Plink' },
        })
      : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  get api(): Stripe {
    if (!this.client) throw new ServiceUnavailableException({ message: BillingMessages.notConfigured });
    return this.client;
  }
}

/** A Stripe answer that says the object does not exist (a wrong or foreign id). */
export function isStripeNotFound(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');
}

/**
 * Any other failure of a call to Stripe (unreachable, timed out, 5xx, or a refusal that is the server's own
 * configuration problem, e.g. a wrong key or price): logged, and answered 503 "The payment provider could not
 * be reached…" so the caller can try again; nothing was changed on Plink's side. Errors that are not Stripe's
 * (ours, or a Nest HTTP exception already) pass through.
 */
export function providerUnavailable(err: unknown, what: string, context: Record<string, unknown> = {}): unknown {
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  getLogger().error(
    // Stripe's message may quote a parameter (an address): addresses never reach the logs.
    { ...context, stripe: { type: err.type, code: err.code, status: err.statusCode, requestId: err.requestId, message: err.message.replace(/[^\s@"']+@[^\s@"']+/g, '[address]') } },
    `Stripe call failed: ${what}`,
  );
  return new ServiceUnavailableException({ message: BillingMessages.providerUnavailable });
}
