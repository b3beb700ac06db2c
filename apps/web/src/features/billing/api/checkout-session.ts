/** The checkout screen's texts, shown word for word. */
export const CheckoutTexts = {
  defaultError: 'Failed to create subscription',
  invalidResponse: 'Invalid response from server',
  missingUrl: 'Server returned an invalid response (missing checkout URL)',
  connectionFailed: 'Failed to connect to the server. Please try again later.',
  /** A create-subscription refusal containing this means the user is Pro already: back to the dashboard. */
  alreadyPremium: 'already have a premium subscription',
} as const;

/** What POST /api/create-subscription came to, as the checkout screen acts on it. */
export type CheckoutSessionOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'already-premium' }
  | { kind: 'error'; message: string };

const field = (body: unknown, name: string): string | undefined => {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value ? value : undefined;
};

/**
 * POST /api/create-subscription: a Stripe Checkout Session to send the browser to. Unlike the other calls it
 * tells apart a network failure, a non-JSON answer, a refusal ('{message}: {error}' or the message)
 * and an answer without a url, each with its own text.
 */
export async function createCheckoutSession(): Promise<CheckoutSessionOutcome> {
  let status: number;
  let text: string;
  try {
    const response = await fetch('/api/create-subscription', { method: 'POST', credentials: 'include' });
    status = response.status;
    text = await response.text();
  } catch {
    return { kind: 'error', message: CheckoutTexts.connectionFailed };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'error', message: CheckoutTexts.invalidResponse };
  }
  if (status < 200 || status >= 300) {
    const message = field(body, 'message');
    const error = field(body, 'error');
    if (message?.includes(CheckoutTexts.alreadyPremium)) return { kind: 'already-premium' };
    if (message && error) return { kind: 'error', message: `${message}: ${error}` };
    return { kind: 'error', message: message ?? CheckoutTexts.defaultError };
  }
  const url = field(body, 'url');
  return url ? { kind: 'redirect', url } : { kind: 'error', message: CheckoutTexts.missingUrl };
}
