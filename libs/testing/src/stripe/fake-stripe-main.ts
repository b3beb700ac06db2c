/**
 * The local Stripe server as a process of its own, for the browser journey (apps/e2e) and for trying the
 * application by hand without Stripe:
 *
 *   node libs/testing/dist/stripe/fake-stripe-main.js --port 12111 \
 *     [--webhook-url <the app's webhook URL>] [--secret-key sk_test_x] \
 *     [--webhook-secret whsec_x] [--price-id price_x] [--hold]
 *
 * Prints one JSON line: {"url","secretKey","webhookSecret","priceId","promotionCode"}; stops on SIGINT/SIGTERM.
 * The test-control calls are HTTP calls here (`POST <url>/_control/advance-time?ms=…` with the secret key as
 * Bearer token; the list is in fake-stripe.ts, handleControl).
 */
import { parseArgs } from 'node:util';
import { FakeStripe } from './fake-stripe';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'webhook-url': { type: 'string' },
      'secret-key': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'price-id': { type: 'string' },
      hold: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  const stripe = await FakeStripe.start({
    port,
    webhookUrl: values['webhook-url'] ?? null,
    secretKey: values['secret-key'],
    webhookSecret: values['webhook-secret'],
    priceId: values['price-id'],
    deliver: values.hold ? 'hold' : 'auto',
    controlApi: true,
  });
  process.stdout.write(
    `${JSON.stringify({ url: stripe.url, secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, priceId: stripe.priceId, promotionCode: stripe.promotionCode })}\n`,
  );
  const stop = () => {
    void stripe.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`fake-stripe: ${err.message}\n`);
  process.exit(1);
});
