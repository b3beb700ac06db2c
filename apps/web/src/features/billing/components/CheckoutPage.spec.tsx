import { screen, waitFor } from '@testing-library/react';
import { BillingMessages } from '@plink/contracts';
import { browserLocation } from '../../../lib/browser-location';
import { type MockRoutes, makeSubscription, makeUser, mockFetch, proPlanStillActive, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const STRIPE_URL = 'https://checkout.stripe.test/c/pay/cs_test_123';

function openCheckout(routes: MockRoutes, { isPremium = false, url = '/checkout?plan=pro' } = {}) {
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium }),
    'GET /api/subscription': { body: makeSubscription() },
    'GET /api/pages': { body: [] },
    ...routes,
  });
  return { fetchMock, ...renderApp(url) };
}

let assign: jest.SpyInstance;
let reload: jest.SpyInstance;
beforeEach(() => {
  assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  reload = jest.spyOn(browserLocation, 'reload').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('/checkout', () => {
  it('sends the bare address back to the dashboard', async () => {
    const { location, fetchMock } = openCheckout({}, { url: '/checkout' });

    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(location()).toBe('/dashboard');
    expect(sentPayloads(fetchMock, 'POST', '/api/create-subscription')).toHaveLength(0);
  });

  it('shows the Pro plan, prepares the session once and goes to the secure checkout', async () => {
    let answer!: (reply: { body: unknown }) => void;
    const { fetchMock, user } = openCheckout({
      'POST /api/create-subscription': () => new Promise((resolve) => (answer = resolve)),
    });

    expect(await screen.findByText('Preparing your checkout...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(screen.getByText('$10')).toBeInTheDocument();
    expect(screen.getByText('/month, cancel anytime')).toBeInTheDocument();
    for (const feature of ['Unlimited landing pages', 'Remove branding', 'Embed tracking scripts', 'Webhooks']) {
      expect(screen.getByText(feature)).toBeInTheDocument();
    }
    expect(
      await screen.findByText('Start with a 14-day free trial. No credit card required for the trial.'),
    ).toBeInTheDocument();

    await waitFor(() => expect(answer).toBeDefined());
    answer({ body: { url: STRIPE_URL } });

    expect(await screen.findByText('Redirecting to secure checkout...')).toBeInTheDocument();
    expect(assign).toHaveBeenCalledWith(STRIPE_URL);
    await user.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
    expect(assign).toHaveBeenCalledTimes(2);
    expect(assign).toHaveBeenLastCalledWith(STRIPE_URL);
    // StrictMode mounts the screen twice; still one session.
    expect(sentPayloads(fetchMock, 'POST', '/api/create-subscription')).toHaveLength(1);
  });

  it('does not offer the trial to a user who cannot have it (theirs, or another account of theirs, had it), and says so', async () => {
    openCheckout({
      'GET /api/subscription': { body: makeSubscription({ trialAvailable: false, status: 'none' }) },
      'POST /api/create-subscription': { body: { url: STRIPE_URL } },
    });

    await screen.findByText('Redirecting to secure checkout...');
    expect(await screen.findByText('Your free trial has been used. Pro starts with your first payment.')).toBeInTheDocument();
    expect(screen.queryByText(/free trial\. No credit card|14-day free trial/)).not.toBeInTheDocument();
  });

  it.each([
    ['a server without payments', { status: 503, body: { message: BillingMessages.notConfigured } }, BillingMessages.notConfigured],
    ['a refusal with an error name', { status: 400, body: { message: 'Card declined', error: 'card_error' } }, 'Card declined: card_error'],
    ['a refusal without a message', { status: 500, body: {} }, 'Failed to create subscription'],
    ['an answer that is not JSON', { status: 502, body: '<html>Bad gateway</html>' }, 'Invalid response from server'],
    ['an answer without a url', { body: { id: 'cs_test_123' } }, 'Server returned an invalid response (missing checkout URL)'],
  ])('explains %s and offers to try again', async (_case, reply, text) => {
    const { user } = openCheckout({ 'POST /api/create-subscription': reply });

    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByText('Preparing your checkout...')).not.toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says when the server cannot be reached', async () => {
    openCheckout({
      'POST /api/create-subscription': () => {
        throw new TypeError('Failed to fetch');
      },
    });

    expect(await screen.findByText('Failed to connect to the server. Please try again later.')).toBeInTheDocument();
  });

  it('sends a user the server knows as Pro to the dashboard', async () => {
    const { location } = openCheckout({
      'POST /api/create-subscription': { status: 400, body: { message: BillingMessages.alreadyPremium } },
    });

    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(location()).toBe('/dashboard');
    expect(assign).not.toHaveBeenCalled();
  });

  it('has a Pro user reset the status first, and leaves for the dashboard while still Pro', async () => {
    const { location, fetchMock } = openCheckout(
      {
        'POST /api/admin/reset-subscription-status': {
          body: { hasActiveSubscription: true, updated: false, isPremium: true },
        },
        ...proPlanStillActive,
      },
      { isPremium: true },
    );

    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(location()).toBe('/dashboard');
    expect(sentPayloads(fetchMock, 'POST', '/api/admin/reset-subscription-status')).toHaveLength(1);
    expect(sentPayloads(fetchMock, 'POST', '/api/create-subscription')).toHaveLength(0);
  });

  it('checks out a user shown as Pro whose plan the reset found ended', async () => {
    let premium = true;
    const { fetchMock } = openCheckout(
      {
        'GET /api/user': () => ({ body: makeUser({ isPremium: premium }) }),
        'POST /api/admin/reset-subscription-status': () => {
          premium = false;
          return { body: { hasActiveSubscription: false, updated: true, isPremium: false } };
        },
        'POST /api/create-subscription': { body: { url: STRIPE_URL } },
      },
      { isPremium: true },
    );

    expect(await screen.findByText('Redirecting to secure checkout...')).toBeInTheDocument();
    expect(assign).toHaveBeenCalledWith(STRIPE_URL);
    const calls = fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`);
    expect(calls.indexOf('POST /api/admin/reset-subscription-status')).toBeLessThan(
      calls.indexOf('POST /api/create-subscription'),
    );
  });
});
