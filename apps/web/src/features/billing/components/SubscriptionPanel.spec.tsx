import { screen, waitFor, within } from '@testing-library/react';
import { BillingMessages, type SubscriptionDto } from '@plink/contracts';
import { browserLocation } from '../../../lib/browser-location';
import { type MockRoutes, makeSubscription, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

// Noon UTC: the same calendar day in every time zone the tests may run in.
const DEC_8 = '2026-12-08T12:00:00.000Z';
const JAN_5 = '2027-01-05T12:00:00.000Z';

const trialing = makeSubscription({
  isPremium: true,
  status: 'trialing',
  source: 'stripe',
  trialEnd: DEC_8,
  currentPeriodEnd: DEC_8,
  trialAvailable: false,
  canManageBilling: true,
});
const renewing = { ...trialing, status: 'active' as const, trialEnd: null, currentPeriodEnd: JAN_5 };

async function openSubscriptionTab(subscription: SubscriptionDto | (() => SubscriptionDto), routes: MockRoutes = {}) {
  const current = typeof subscription === 'function' ? subscription : () => subscription;
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium: current().isPremium }),
    'GET /api/subscription': () => ({ body: current() }),
    ...routes,
  });
  const rendered = renderApp('/settings?tab=subscription');
  await screen.findByRole('heading', { name: 'Current plan' });
  return { fetchMock, ...rendered };
}

const planStatus = () => screen.getByTestId('plan-status');

afterEach(() => jest.restoreAllMocks());

describe('Settings → Subscription', () => {
  it('opens from ?tab=subscription, and the tabs keep the address in step', async () => {
    const { user, location } = await openSubscriptionTab(makeSubscription());

    expect(screen.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Account' }));
    expect(location()).toBe('/settings?tab=account');
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeVisible();
  });

  it('offers a Free user the upgrade, with the trial while it is available', async () => {
    await openSubscriptionTab(makeSubscription());

    expect(planStatus()).toHaveTextContent('Free');
    expect(screen.getByText('Try Pro free for 14 days. No credit card required for the trial.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?plan=pro');
    expect(screen.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
  });

  it('offers the upgrade without the trial to a Free user who cannot have it, and says why', async () => {
    await openSubscriptionTab(makeSubscription({ trialAvailable: false }));

    expect(screen.getByText('Your free trial has been used. Pro starts with your first payment.')).toBeInTheDocument();
    expect(screen.queryByText(/Try Pro free/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?plan=pro');
  });

  it('says so instead when the server takes no payments', async () => {
    await openSubscriptionTab(makeSubscription({ paymentsConfigured: false }));

    expect(screen.getByText(BillingMessages.notConfigured)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });

  it('shows a trial with its end, and the way to cancel it', async () => {
    await openSubscriptionTab(trialing);
    expect(planStatus()).toHaveTextContent('Pro — trial until Dec 8, 2026');
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });

  it('shows the renewal date of a paid plan', async () => {
    await openSubscriptionTab(renewing);
    expect(planStatus()).toHaveTextContent('Pro — renews Jan 5, 2027');
  });

  it('tells a past-due user to update the card in Manage billing', async () => {
    // Stripe retries the card meanwhile: the plan stays Pro.
    await openSubscriptionTab({ ...renewing, status: 'past_due' });

    expect(planStatus()).toHaveTextContent('Payment past due');
    expect(screen.getByText('Update your card with Manage billing to keep your Pro plan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });

  it("shows an operator's grant, which has nothing to cancel", async () => {
    await openSubscriptionTab(makeSubscription({ isPremium: true, status: 'active', source: 'operator', currentPeriodEnd: JAN_5 }));

    expect(planStatus()).toHaveTextContent('Pro — granted by the operator until Jan 5, 2027');
    expect(screen.getByText(BillingMessages.grantedByOperator)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
  });

  it('opens the Billing Portal from Manage billing', async () => {
    const assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = await openSubscriptionTab(renewing, {
      'POST /api/billing-portal': { body: { url: 'https://billing.stripe.test/p/session/bps_1' } },
    });

    await user.click(screen.getByRole('button', { name: 'Manage billing' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/bps_1'));
  });

  it('asks before cancelling; Keep Subscription changes nothing', async () => {
    const { user, fetchMock } = await openSubscriptionTab(trialing);

    await user.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('You keep Pro until Dec 8, 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Subscription' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentPayloads(fetchMock, 'POST', '/api/cancel-subscription')).toHaveLength(0);
  });

  it('cancels on confirmation, says until when, and shows the plan cancelling with a way to resume', async () => {
    let subscription: SubscriptionDto = trialing;
    const { user, fetchMock } = await openSubscriptionTab(() => subscription, {
      'POST /api/cancel-subscription': () => {
        subscription = { ...trialing, cancelAtPeriodEnd: true };
        return { body: { message: 'Subscription cancelled', endsAt: DEC_8 } };
      },
    });
    const userFetches = sentPayloads(fetchMock, 'GET', '/api/user').length;

    await user.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm Cancellation' }));

    expect(await findToast('Subscription cancelled')).toHaveTextContent('Your Pro plan stays active until Dec 8, 2026.');
    await waitFor(() => expect(planStatus()).toHaveTextContent('Pro — cancels Dec 8, 2026'));
    expect(screen.getByRole('button', { name: 'Resume subscription' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'GET', '/api/user').length).toBeGreaterThan(userFetches);
  });

  it('reports a failed cancellation with the server’s reason', async () => {
    const { user } = await openSubscriptionTab(renewing, {
      'POST /api/cancel-subscription': { status: 503, body: { message: BillingMessages.providerUnavailable } },
    });

    await user.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm Cancellation' }));

    expect(await findToast('Cancellation failed')).toHaveTextContent(BillingMessages.providerUnavailable);
    expect(planStatus()).toHaveTextContent('Pro — renews Jan 5, 2027');
  });

  it('resumes a cancelled subscription', async () => {
    let subscription: SubscriptionDto = { ...renewing, cancelAtPeriodEnd: true };
    const { user } = await openSubscriptionTab(() => subscription, {
      'POST /api/resume-subscription': () => {
        subscription = renewing;
        return { body: { message: 'Subscription resumed', renewsAt: JAN_5 } };
      },
    });
    expect(planStatus()).toHaveTextContent('Pro — cancels Jan 5, 2027');

    await user.click(screen.getByRole('button', { name: 'Resume subscription' }));

    expect(await findToast('Subscription resumed')).toHaveTextContent('Your Pro plan renews on Jan 5, 2027.');
    await waitFor(() => expect(planStatus()).toHaveTextContent('Pro — renews Jan 5, 2027'));
  });

  it('resets the subscription status and shows the corrected plan', async () => {
    let subscription: SubscriptionDto = renewing;
    const { user } = await openSubscriptionTab(() => subscription, {
      'POST /api/admin/reset-subscription-status': () => {
        subscription = makeSubscription({ status: 'canceled', source: 'stripe', trialAvailable: false });
        return { body: { hasActiveSubscription: false, updated: true, isPremium: false } };
      },
    });

    await user.click(screen.getByRole('button', { name: 'Reset subscription status' }));

    expect(await findToast('Subscription status reset')).toHaveTextContent('Your account is on the Free plan.');
    await waitFor(() => expect(planStatus()).toHaveTextContent('Free'));
  });

  it('reports a failed reset', async () => {
    const { user } = await openSubscriptionTab(renewing, {
      'POST /api/admin/reset-subscription-status': { status: 500, body: { message: 'Something went wrong. Please try again later.' } },
    });

    await user.click(screen.getByRole('button', { name: 'Reset subscription status' }));

    expect(await findToast('Reset failed')).toHaveTextContent('Something went wrong. Please try again later.');
  });
});
