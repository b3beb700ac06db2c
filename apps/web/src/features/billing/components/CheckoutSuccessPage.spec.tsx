import { screen } from '@testing-library/react';
import { deferred, type MockReply, type MockRoutes, makeSubscription, makeUser, mockFetch, sentPayloads } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const ACTIVE = { hasActiveSubscription: true, updated: true, isPremium: true };

function openSuccess(url: string, routes: MockRoutes) {
  const fetchMock = mockFetch({ 'GET /api/user': { body: makeUser() }, ...routes });
  return { fetchMock, ...renderApp(url) };
}

const userFetches = (fetchMock: ReturnType<typeof mockFetch>) => sentPayloads(fetchMock, 'GET', '/api/user').length;

describe('/checkout/success', () => {
  it('verifies the session, checks the subscription, welcomes the user to Pro and refetches them', async () => {
    const verification = deferred<MockReply>();
    let premium = false;
    const { fetchMock, user, location } = openSuccess('/checkout/success?session_id=cs_test_42', {
      'GET /api/user': () => ({ body: makeUser({ isPremium: premium }) }),
      'POST /api/verify-checkout': () => verification.promise,
      'POST /api/check-subscription-status': () => {
        premium = true;
        return { body: ACTIVE };
      },
      'GET /api/pages': { body: [] },
      'GET /api/subscription': { body: makeSubscription({ isPremium: true, status: 'active', source: 'stripe', currentPeriodEnd: '2027-01-08T12:00:00.000Z' }) },
    });

    expect(await screen.findByRole('heading', { name: 'Processing Your Payment' })).toBeInTheDocument();
    const fetchesBefore = userFetches(fetchMock);
    verification.resolve({ body: { success: true, isPremium: true, hasActiveSubscription: true } });

    expect(await screen.findByRole('heading', { name: 'Welcome to Pro!' })).toBeInTheDocument();
    expect(screen.getByText('Your subscription has been activated')).toBeInTheDocument();
    expect(screen.queryByText(/Your trial ends on/)).not.toBeInTheDocument();
    expect(userFetches(fetchMock)).toBeGreaterThan(fetchesBefore);
    // StrictMode mounts the screen twice; the session is still verified once.
    expect(sentPayloads(fetchMock, 'POST', '/api/verify-checkout')).toEqual([{ sessionId: 'cs_test_42' }]);

    await user.click(screen.getByRole('link', { name: 'Go to Dashboard' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(location()).toBe('/dashboard');
    // The refetched user is Pro: no upgrade panel any more.
    expect(screen.queryByRole('heading', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });

  it('says when it is a trial, and the day it ends', async () => {
    openSuccess('/checkout/success?session_id=cs_test_trial', {
      'POST /api/verify-checkout': { body: { success: true, isPremium: true, hasActiveSubscription: true } },
      'POST /api/check-subscription-status': { body: ACTIVE },
      'GET /api/subscription': {
        body: makeSubscription({ isPremium: true, status: 'trialing', source: 'stripe', trialEnd: '2026-12-10T12:00:00.000Z', trialAvailable: false }),
      },
    });

    expect(await screen.findByRole('heading', { name: 'Welcome to Pro!' })).toBeInTheDocument();
    expect(screen.getByText('Your free trial has started')).toBeInTheDocument();
    expect(screen.getByText(/Your trial ends on/)).toHaveTextContent(
      'Your trial ends on Dec 10, 2026. You will not be charged before then, and you can cancel any time in Settings.',
    );
  });

  it('fails when the subscription is not active after all', async () => {
    openSuccess('/checkout/success?session_id=cs_test_42', {
      'POST /api/verify-checkout': { body: { success: false, isPremium: false, hasActiveSubscription: false } },
      'POST /api/check-subscription-status': { body: { hasActiveSubscription: false, updated: false, isPremium: false } },
    });

    expect(await screen.findByRole('heading', { name: 'Something Went Wrong' })).toBeInTheDocument();
    expect(screen.getByText('We could not verify your payment')).toBeInTheDocument();
    expect(
      screen.getByText(/There was an issue verifying your payment\. Please contact support at/),
    ).toHaveTextContent('There was an issue verifying your payment. Please contact support at support@plink.app');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('fails when the server refuses the session (e.g. another user’s)', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fetchMock } = openSuccess('/checkout/success?session_id=cs_test_other', {
      'POST /api/verify-checkout': { status: 404, body: { message: 'Checkout session not found.' } },
    });

    expect(await screen.findByRole('heading', { name: 'Something Went Wrong' })).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/check-subscription-status')).toHaveLength(0);
    expect(logged).toHaveBeenCalledWith('Payment verification failed', expect.anything());
    logged.mockRestore();
  });

  it('fails at once without a session_id, calling nothing', async () => {
    const { fetchMock } = openSuccess('/checkout/success', {});

    expect(await screen.findByRole('heading', { name: 'Something Went Wrong' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Processing Your Payment' })).not.toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/verify-checkout')).toHaveLength(0);
  });
});
