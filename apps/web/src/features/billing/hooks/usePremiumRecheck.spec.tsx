import { act, screen, waitFor } from '@testing-library/react';
import { TOAST_DURATION } from '../../../lib/toast';
import { makeUser, mockFetch, type MockRoutes, noPages, proPlanStillActive, sentPayloads } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';
import { INACTIVE_SUBSCRIPTION_TEXT } from './usePremiumRecheck';

function openDashboard(routes: MockRoutes, { isPremium = true, fakeTimers = false } = {}) {
  const fetchMock = mockFetch({ 'GET /api/user': { body: makeUser({ isPremium }) }, ...noPages, ...routes });
  return { fetchMock, ...renderApp('/dashboard', { fakeTimers }) };
}

const upgradePanel = () => screen.queryByRole('heading', { name: 'Upgrade to Pro' });

describe('dashboard premium re-check', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('tells a user whose Pro plan ended, for 8 s, and shows them as Free', async () => {
    jest.useFakeTimers();
    let premium = true;
    const { fetchMock } = openDashboard(
      {
        'GET /api/user': () => ({ body: makeUser({ isPremium: premium }) }),
        'POST /api/check-subscription-status': () => {
          premium = false;
          return { body: { hasActiveSubscription: false, updated: true, isPremium: false } };
        },
      },
      { fakeTimers: true },
    );

    const toast = await findToast('Subscription Status');
    expect(toast).toHaveTextContent(INACTIVE_SUBSCRIPTION_TEXT);
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(await screen.findByRole('heading', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    // StrictMode mounts the dashboard twice; the status is still checked once.
    expect(sentPayloads(fetchMock, 'POST', '/api/check-subscription-status')).toHaveLength(1);

    await act(() => jest.advanceTimersByTime(TOAST_DURATION.inactiveSubscription - 500));
    expect(screen.getByText('Subscription Status')).toBeInTheDocument();
    await act(() => jest.advanceTimersByTime(1_000));
    await act(() => jest.advanceTimersByTime(500));
    expect(screen.queryByText('Subscription Status')).not.toBeInTheDocument();
  });

  it('says nothing while the plan is still active', async () => {
    const { fetchMock } = openDashboard(proPlanStillActive);

    await screen.findByRole('heading', { name: 'Dashboard' });
    await screen.findByText("You haven't created any plinks yet.");
    expect(sentPayloads(fetchMock, 'POST', '/api/check-subscription-status')).toHaveLength(1);
    expect(screen.queryByText('Subscription Status')).not.toBeInTheDocument();
    expect(upgradePanel()).not.toBeInTheDocument();
  });

  it('does not check a Free user', async () => {
    const { fetchMock } = openDashboard({}, { isPremium: false });

    await screen.findByText("You haven't created any plinks yet.");
    expect(sentPayloads(fetchMock, 'POST', '/api/check-subscription-status')).toHaveLength(0);
  });

  it('only logs a failed check', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    openDashboard({ 'POST /api/check-subscription-status': { status: 500, body: { message: 'Stripe is down' } } });

    await screen.findByText("You haven't created any plinks yet.");
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Subscription status check failed', expect.anything()));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(upgradePanel()).not.toBeInTheDocument();
  });
});
