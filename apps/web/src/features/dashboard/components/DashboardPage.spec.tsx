import { act, screen, waitFor, within } from '@testing-library/react';
import type { PageDto } from '@plink/contracts';
import { deferred, freePlan, makePage, makeSubscription, type MockReply, mockFetch, proPlanStillActive, sentPayloads, signedInAs, templatesAvailable } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const guide = makePage({ id: 1, title: 'Free Guide', slug: 'free-guide', views: 200, conversions: 25 });
const waitlist = makePage({ id: 2, title: 'Waitlist', slug: 'waitlist', views: 0, conversions: 0, pending: 3 });

async function openDashboard(pages: PageDto[], { isPremium = true, routes = {} } = {}) {
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium }),
    'GET /api/pages': { body: pages },
    // The premium re-check (its own spec in features/billing): the plan is still active.
    ...proPlanStillActive,
    // A Free user's upgrade offer reads their plan (the trial is offered once per person).
    ...freePlan,
    ...routes,
  });
  const rendered = renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Dashboard' });
  return { fetchMock, ...rendered };
}

const card = (label: string) => screen.getByText(label).parentElement as HTMLElement;
const row = (title: string) => screen.getByRole('row', { name: new RegExp(title) });

describe('/dashboard summary and table', () => {
  it('sums pages, views and leads, and shows each page with its rate', async () => {
    await openDashboard([guide, waitlist]);

    await screen.findByRole('table');
    expect(card('TOTAL PLINKS')).toHaveTextContent('TOTAL PLINKS2');
    expect(card('TOTAL VIEWS')).toHaveTextContent('TOTAL VIEWS200');
    expect(card('TOTAL LEADS')).toHaveTextContent('TOTAL LEADS25');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Page', 'URL', 'Stats', 'Actions']);

    const first = within(row('Free Guide'));
    expect(first.getByText('localhost/free-guide')).toBeInTheDocument();
    expect(first.getByText('200 views')).toBeInTheDocument();
    expect(first.getByText('25 conversions')).toBeInTheDocument();
    expect(first.getByText('12.5%')).toBeInTheDocument();
    expect(within(row('Waitlist')).getByText('0%')).toBeInTheDocument();
    // Double opt-in sign-ups not confirmed yet: shown apart, not in the conversions nor the total.
    expect(within(row('Waitlist')).getByText('3 pending')).toBeInTheDocument();
    expect(first.queryByText(/pending/)).not.toBeInTheDocument();
  });

  it('leaves the leads that came without a counted view out of the rate, not out of the conversions', async () => {
    // 40 views; 30 leads, of which 20 were added through the API: 10 ÷ 40, not 30 ÷ 40 (nor over 100 %).
    await openDashboard([makePage({ id: 3, title: 'Webinar', slug: 'webinar', views: 40, conversions: 30, conversionsWithoutVisit: 20 })]);

    const webinar = within(await screen.findByRole('row', { name: /Webinar/ }));
    expect(webinar.getByText('30 conversions')).toBeInTheDocument();
    expect(webinar.getByText('25.0%')).toBeInTheDocument();
    expect(card('TOTAL LEADS')).toHaveTextContent('TOTAL LEADS30');
  });

  it("draws each page's views of the last 30 days as a sparkline, a flat one for a page without views", async () => {
    const series = Array.from({ length: 30 }, (_, i) => (i === 29 ? 9 : i === 0 ? 3 : 0));
    await openDashboard([guide, waitlist], {
      routes: { 'GET /api/pages/daily-views': { body: { from: '2026-10-29', to: '2026-11-27', views: { '1': series } } } },
    });

    await screen.findByRole('table');
    const line = await within(row('Free Guide')).findByRole('img', { name: '12 views in the last 30 days' });
    const points = line.querySelector('polyline')!.getAttribute('points')!.split(' ');
    expect(points).toHaveLength(30);
    // The busiest day (today, last) is at the top; a day without views at the bottom.
    expect(points[29]).toBe('96.0,2.0');
    expect(points[1]).toBe('3.3,26.0');
    expect(within(row('Waitlist')).getByRole('img', { name: '0 views in the last 30 days' })).toBeInTheDocument();
  });

  it('links to the editor, the stats, the CSV and the live page (the last two in a new tab)', async () => {
    const { user } = await openDashboard([guide]);
    const actions = within(await screen.findByRole('row', { name: /Free Guide/ }));

    expect(actions.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/editor/1');
    expect(actions.getByRole('link', { name: 'Stats' })).toHaveAttribute('href', '/stats/1');
    // The rest is in the row's menu.
    await user.click(actions.getByRole('button', { name: 'More actions for Free Guide' }));
    const download = await screen.findByRole('menuitem', { name: 'Download Leads' });
    expect(download).toHaveAttribute('href', '/api/pages/1/export');
    expect(download).toHaveAttribute('target', '_blank');
    const view = actions.getByRole('link', { name: 'View' });
    expect(view).toHaveAttribute('href', '/free-guide');
    expect(view).toHaveAttribute('target', '_blank');
  });

  it('copies the full link and says so', async () => {
    const { user } = await openDashboard([guide]);
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');

    await user.click(await screen.findByRole('button', { name: 'Copy URL of localhost/free-guide' }));

    expect(await findToast('URL Copied')).toHaveTextContent('Link copied to clipboard!');
    expect(writeText).toHaveBeenCalledWith('http://localhost/free-guide');
  });

  it('shows the empty state with a first-page button', async () => {
    await openDashboard([]);

    expect(await screen.findByText("You haven't created any plinks yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Your First Plink' })).toHaveAttribute('href', '/editor/new');
    expect(card('TOTAL PLINKS')).toHaveTextContent('TOTAL PLINKS0');
  });

  it('retries a failed load once, then says so', async () => {
    const { fetchMock } = await openDashboard([], {
      routes: { 'GET /api/pages': { status: 500, body: { message: 'Database unavailable' } } },
    });

    expect(
      await screen.findByText('Error loading your plinks. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'GET', '/api/pages')).toHaveLength(2);
  });

  it('keeps the upgrade panel for Free users only, offering the trial to one who can still have it', async () => {
    await openDashboard([guide], { isPremium: false });
    expect(screen.getByRole('heading', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(await screen.findByText(/Try it free for 14 days, no credit card needed\./)).toBeInTheDocument();
    expect(screen.getByTestId('upgrade-offer')).toHaveTextContent(
      'Unlimited pages, branding removal, tracking scripts and webhooks for $10/month. Try it free for 14 days, no credit card needed.',
    );
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/checkout?plan=pro');
  });

  it('does not promise the trial to a Free user who cannot have it (another account of theirs had it)', async () => {
    const { fetchMock } = await openDashboard([guide], {
      isPremium: false,
      routes: { 'GET /api/subscription': { body: makeSubscription({ trialAvailable: false }) } },
    });
    expect(await screen.findByText(/Your free trial has been used\. Pro starts with your first payment\./)).toBeInTheDocument();
    expect(screen.getByTestId('upgrade-offer')).not.toHaveTextContent(/Try it free|14 days/);
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/checkout?plan=pro');
    expect(sentPayloads(fetchMock, 'GET', '/api/subscription')).toHaveLength(1);
  });

  it('says nothing of the trial while the plan is unknown (it could not be read)', async () => {
    const { fetchMock } = await openDashboard([guide], {
      isPremium: false,
      routes: { 'GET /api/subscription': { status: 500, body: { message: 'Database unavailable' } } },
    });
    // Asked again once, then given up.
    await waitFor(() => expect(sentPayloads(fetchMock, 'GET', '/api/subscription')).toHaveLength(2), { timeout: 4_000 });
    expect(screen.getByTestId('upgrade-offer')).toHaveTextContent(/^Unlimited pages, branding removal, tracking scripts and webhooks for \$10\/month\.$/);
  });

  it('has no upgrade panel for Pro users', async () => {
    await openDashboard([guide], { isPremium: true });
    expect(screen.queryByRole('heading', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });
});

describe('/dashboard delete', () => {
  it('asks first, shows the pending state, then confirms and refreshes the list', async () => {
    let pages = [guide, waitlist];
    const answer = deferred<MockReply>();
    const { user, fetchMock } = await openDashboard([], {
      routes: {
        'GET /api/pages': () => ({ body: pages }),
        'DELETE /api/pages/1': () => answer.promise,
      },
    });

    await user.click(within(await screen.findByRole('row', { name: /Free Guide/ })).getByRole('button', { name: 'More actions for Free Guide' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    // The dialog's code loads when it first opens.
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this Plink?' });
    expect(dialog).toHaveTextContent('It goes to the Trash: you can restore it from Settings → Trash for 14 days, then it is removed with its leads.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();

    pages = [waitlist];
    await act(async () => answer.resolve({ status: 204 }));

    expect(await findToast('Moved to Trash')).toHaveTextContent('It stays in Settings → Trash for 14 days.');
    await waitFor(() => expect(screen.queryByRole('row', { name: /Free Guide/ })).not.toBeInTheDocument());
    expect(card('TOTAL PLINKS')).toHaveTextContent('TOTAL PLINKS1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'DELETE', '/api/pages/1')).toHaveLength(1);
  });

  it('offers Undo in its toast, which restores the page', async () => {
    let pages = [guide, waitlist];
    const { user, fetchMock } = await openDashboard([], {
      isPremium: true,
      routes: {
        'GET /api/pages': () => ({ body: pages }),
        'DELETE /api/pages/1': () => {
          pages = [waitlist];
          return { body: { message: 'Page moved to the Trash.' } };
        },
        'POST /api/pages/1/restore': () => {
          pages = [guide, waitlist];
          return { body: guide };
        },
      },
    });

    await user.click(within(await screen.findByRole('row', { name: /Free Guide/ })).getByRole('button', { name: 'More actions for Free Guide' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const toast = await findToast('Moved to Trash');
    await waitFor(() => expect(screen.queryByRole('row', { name: /Free Guide/ })).not.toBeInTheDocument());

    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(await findToast('Page restored')).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: /Free Guide/ })).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/1/restore')).toHaveLength(1);
  });

  it('does nothing on Cancel', async () => {
    const { user, fetchMock } = await openDashboard([guide]);

    await user.click(within(await screen.findByRole('row', { name: /Free Guide/ })).getByRole('button', { name: 'More actions for Free Guide' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'DELETE', '/api/pages/1')).toHaveLength(0);
    expect(row('Free Guide')).toBeInTheDocument();
  });

  it("reports the server's reason when the delete fails", async () => {
    const { user } = await openDashboard([guide], {
      routes: { 'DELETE /api/pages/1': { status: 500, body: { message: 'Database unavailable' } } },
    });

    await user.click(within(await screen.findByRole('row', { name: /Free Guide/ })).getByRole('button', { name: 'More actions for Free Guide' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));

    const toast = await findToast('Error');
    expect(toast).toHaveTextContent('Failed to delete Plink: Database unavailable');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(row('Free Guide')).toBeInTheDocument();
  });
});

describe('/dashboard page limit', () => {
  it('stops a Free user with a page at the Page Limit Reached dialog', async () => {
    const { user, location } = await openDashboard([guide], { isPremium: false });

    await user.click(await screen.findByRole('link', { name: 'Create New' }));

    const dialog = await screen.findByRole('dialog', { name: 'Page Limit Reached' });
    expect(dialog).toHaveTextContent('Free plan users can only create one landing page.');
    expect(within(dialog).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?plan=pro');
    expect(location()).toBe('/dashboard');

    await user.click(within(dialog).getByRole('button', { name: 'Back to Dashboard' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lets a Free user without pages create the first one', async () => {
    const { user, location } = await openDashboard([], { isPremium: false, routes: templatesAvailable });

    await user.click(await screen.findByRole('link', { name: 'Create Your First Plink' }));

    // "Create page" starts at the template gallery.
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a template' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Page Limit Reached' })).not.toBeInTheDocument();
    expect(location()).toBe('/editor/new');
  });
});
