import type { StripeObject } from './stripe-protocol';

/**
 * The small HTML pages the local Stripe server shows a browser in place of Stripe's hosted ones: the
 * checkout page a Checkout Session's `url` opens, and the billing portal. Plain forms, no script, so a
 * Playwright test clicks them like a person would.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
label { display: block; margin: 1rem 0 0.25rem; }
input { width: 100%; padding: 0.5rem; box-sizing: border-box; }
button { margin-top: 1.5rem; padding: 0.6rem 1.2rem; font-size: 1rem; }
.error { color: #b00020; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** `$10.00 per month` */
export function describePrice(price: StripeObject): string {
  const amount = `$${(price.unit_amount / 100).toFixed(2)}`;
  if (!price.recurring) return amount;
  const { interval, interval_count: count } = price.recurring;
  return count === 1 ? `${amount} per ${interval}` : `${amount} every ${count} ${interval}s`;
}

export interface CheckoutPageModel {
  session: StripeObject;
  price: StripeObject;
  productName: string;
  trialDays: number;
  /** Whether the page asks for a card (no trial, or payment_method_collection=always), else the card is optional. */
  cardRequired: boolean;
  askEmail: boolean;
  error?: string;
  /** What the payer typed, shown again with an error. */
  values?: { email?: string; promotion_code?: string; card_number?: string };
}

export function checkoutPage(model: CheckoutPageModel): string {
  const { session, price, trialDays } = model;
  const values = model.values ?? {};
  const offer =
    trialDays > 0
      ? `<p id="offer">${trialDays} days free, then ${escapeHtml(describePrice(price))}</p>`
      : `<p id="offer">${escapeHtml(describePrice(price))}</p>`;
  const email = model.askEmail
    ? `<label for="email">Email</label><input id="email" name="email" type="email" required value="${escapeHtml(values.email ?? '')}">`
    : `<p>Paying as ${escapeHtml(session.customer_email ?? session.customer_details?.email ?? session.customer ?? '')}</p>`;
  const cardLabel = model.cardRequired ? 'Card number' : 'Card number (optional during the trial)';
  const cardValue = values.card_number ?? (model.cardRequired ? '4242 4242 4242 4242' : '');
  const card = `<label for="card_number">${cardLabel}</label><input id="card_number" name="card_number" inputmode="numeric" ${model.cardRequired ? 'required' : ''} value="${escapeHtml(cardValue)}">`;
  const promo = session.allow_promotion_codes
    ? `<label for="promotion_code">Promotion code</label><input id="promotion_code" name="promotion_code" value="${escapeHtml(values.promotion_code ?? '')}">`
    : '';
  const error = model.error ? `<p class="error" role="alert">${escapeHtml(model.error)}</p>` : '';
  const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : '';
  return page(
    'Plink test checkout',
    `<h1>Plink test checkout</h1>
<p>Subscribe to ${escapeHtml(model.productName)}</p>
${offer}
${error}
<form method="post" action="/c/pay/${escapeHtml(session.id)}">
${email}
${card}
${promo}
<button type="submit">${trialDays > 0 ? 'Start trial' : 'Subscribe'}</button>
</form>
${cancel}`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  const back = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n${back}`);
}

export function portalPage(portal: StripeObject, customer: StripeObject | undefined, subscriptions: StripeObject[], describe: (sub: StripeObject) => string): string {
  const rows = subscriptions.length
    ? subscriptions
        .map((sub) => {
          const action =
            sub.status === 'canceled'
              ? ''
              : sub.cancel_at_period_end
                ? `<form method="post" action="/p/session/${escapeHtml(portal.id)}/renew/${escapeHtml(sub.id)}"><button type="submit">Renew subscription</button></form>`
                : `<form method="post" action="/p/session/${escapeHtml(portal.id)}/cancel/${escapeHtml(sub.id)}"><button type="submit">Cancel subscription</button></form>`;
          return `<li><p>${escapeHtml(describe(sub))}</p>${action}</li>`;
        })
        .join('\n')
    : '<li>No subscriptions.</li>';
  const back = portal.return_url ? `<p><a href="${escapeHtml(portal.return_url)}">Return to Plink</a></p>` : '';
  return page(
    'Plink test billing portal',
    `<h1>Plink test billing portal</h1>
<p>${escapeHtml(customer?.email ?? portal.customer)}</p>
<ul>
${rows}
</ul>
${back}`,
  );
}
