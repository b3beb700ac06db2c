import { screen, waitFor, within } from '@testing-library/react';
import { PausedPageTexts, type PageDto, type SubscriptionDto } from '@plink/contracts';
import { contrast } from '../../../test/contrast';
import { makePage, mockFetch, proPlanStillActive, sentPayloads, signedInAs, type MockRoutes } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const live = makePage({ id: 1, title: 'Free Guide', slug: 'free-guide', conversions: 4 });
const paused = makePage({ id: 2, title: 'Waitlist', slug: 'waitlist', paused: true, conversions: 7 });

const subscription = (overrides: Partial<SubscriptionDto> = {}): SubscriptionDto => ({
  isPremium: false,
  status: 'canceled',
  source: 'operator',
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialAvailable: true,
  paymentsConfigured: false,
  canManageBilling: false,
  downgradedAt: '2026-11-24T10:00:00.000Z',
  leadRemovalAt: '2026-12-24T10:00:00.000Z',
  ...overrides,
});

async function openDashboard(pages: PageDto[], { isPremium = false, routes = {} as MockRoutes, table = true } = {}) {
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium }),
    'GET /api/pages': { body: pages },
    'GET /api/subscription': { body: subscription() },
    ...routes,
  });
  const rendered = renderApp('/dashboard');
  // The table at a wide window; on a phone the test waits for its cards itself.
  if (table) await screen.findByRole('table');
  return { fetchMock, ...rendered };
}

const row = (title: string) => within(screen.getByRole('row', { name: new RegExp(title) }));

describe('/dashboard after a downgrade: paused pages', () => {
  it('marks paused pages with a badge that explains itself, and offers "Keep this page live" on them only', async () => {
    const { user } = await openDashboard([live, paused]);

    expect(row('Waitlist').getByText('Paused')).toBeInTheDocument();
    expect(row('Free Guide').queryByText('Paused')).not.toBeInTheDocument();
    expect(row('Waitlist').getByRole('button', { name: 'Keep this page live' })).toBeInTheDocument();
    expect(row('Free Guide').queryByRole('button', { name: 'Keep this page live' })).not.toBeInTheDocument();
    // Stats and the lead export stay available on a paused page.
    expect(row('Waitlist').getByRole('link', { name: 'Stats' })).toHaveAttribute('href', '/stats/2');
    await user.click(row('Waitlist').getByRole('button', { name: 'More actions for Waitlist' }));
    expect(await screen.findByRole('menuitem', { name: 'Download Leads' })).toHaveAttribute('href', '/api/pages/2/export');
    await user.keyboard('{Escape}');

    // The tooltip's code loads once the list shows: the badge is hovered as it is then.
    await user.hover(row('Waitlist').getByText('Paused'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(PausedPageTexts.badgeTooltip);
  });

  it('keeps the chosen page live: sends the call, says so and shows the new state', async () => {
    let pages = [live, paused];
    const { user, fetchMock } = await openDashboard([], {
      routes: {
        'GET /api/pages': () => ({ body: pages }),
        'POST /api/pages/2/keep-live': () => {
          pages = [{ ...live, paused: true }, { ...paused, paused: false }];
          return { body: { message: 'This page is live again. Your other pages are paused.', pages } };
        },
      },
    });

    await user.click(row('Waitlist').getByRole('button', { name: 'Keep this page live' }));

    expect(await findToast('Page is live')).toHaveTextContent('This page is live again. Your other pages are paused.');
    await waitFor(() => expect(row('Free Guide').getByText('Paused')).toBeInTheDocument());
    expect(row('Waitlist').queryByText('Paused')).not.toBeInTheDocument();
    expect(row('Free Guide').getByRole('button', { name: 'Keep this page live' })).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/2/keep-live')).toHaveLength(1);
  });

  it('says why when the choice fails, and changes nothing', async () => {
    const { user } = await openDashboard([live, paused], {
      routes: { 'POST /api/pages/2/keep-live': { status: 404, body: { message: 'Page not found' } } },
    });

    await user.click(row('Waitlist').getByRole('button', { name: 'Keep this page live' }));

    expect(await findToast('Error')).toHaveTextContent('Could not keep this page live: Page not found');
    expect(row('Waitlist').getByText('Paused')).toBeInTheDocument();
  });

  it('on a phone, offers "Keep this page live" on the paused page’s card, and it works there too', async () => {
    // A phone's width: the list shows cards instead of the table.
    const jsdomMatchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...jsdomMatchMedia(query), matches: query.includes('max-width') });
    try {
      let pages = [live, paused];
      const { user } = await openDashboard([], {
        table: false,
        routes: {
          'GET /api/pages': () => ({ body: pages }),
          'POST /api/pages/2/keep-live': () => {
            pages = [{ ...live, paused: true }, { ...paused, paused: false }];
            return { body: { message: 'This page is live again. Your other pages are paused.', pages } };
          },
        },
      });
      const pausedCard = within(await screen.findByRole('listitem', { name: 'Waitlist' }));
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(pausedCard.getByText('Paused')).toBeInTheDocument();
      // The card keeps every action of the table's row (its layout is checked in a browser: apps/e2e screens).
      const keep = pausedCard.getByRole('button', { name: 'Keep this page live' });
      for (const action of ['Edit', 'Stats', 'View']) expect(pausedCard.getByRole('link', { name: action })).toBeInTheDocument();
      expect(within(screen.getByRole('listitem', { name: 'Free Guide' })).queryByRole('button', { name: 'Keep this page live' })).not.toBeInTheDocument();

      await user.click(keep);
      expect(await findToast('Page is live')).toBeInTheDocument();
      await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'Free Guide' })).getByText('Paused')).toBeInTheDocument());
    } finally {
      window.matchMedia = jsdomMatchMedia;
    }
  });

  it('warns when the paused pages’ leads will be removed, with the export hint and an upgrade button', async () => {
    await openDashboard([live, paused]);

    const banner = await screen.findByRole('alert', { name: /Leads of your paused pages will be removed/ });
    expect(banner).toHaveTextContent('The e-mail addresses collected by your paused pages will be removed on 24 December 2026.');
    expect(banner).toHaveTextContent("Export them first with 'Download Leads' on each paused page");
    expect(within(banner).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?plan=pro');
  });

  it('draws the paused UI in orange that reads at 4.5:1 (WCAG AA), hovered too', async () => {
    await openDashboard([live, paused]);
    const banner = await screen.findByRole('alert', { name: /Leads of your paused pages will be removed/ });

    const badge = row('Waitlist').getByText('Paused').closest<HTMLElement>('.mantine-Badge-root') as HTMLElement;
    const keepLive = row('Waitlist').getByRole('button', { name: 'Keep this page live' });
    const upgrade = within(banner).getByRole('link', { name: 'Upgrade to Pro' });
    const ratios = {
      badge: contrast(badge, '--badge-color', '--badge-bg'),
      keepLive: contrast(keepLive, '--button-color', '--button-bg'),
      keepLiveHovered: contrast(keepLive, '--button-color', '--button-hover'),
      noticeTitle: contrast(banner, '--alert-color', '--alert-bg'),
      upgrade: contrast(upgrade, '--button-color', '--button-bg'),
      upgradeHovered: contrast(upgrade, '--button-color', '--button-hover'),
    };
    expect(Object.entries(ratios).filter(([, ratio]) => ratio < 4.5)).toEqual([]);
  });

  it('has no banner when nothing is due (leads already removed, or no paused page) and never asks for a Pro user', async () => {
    const removed = await openDashboard([live, paused], { routes: { 'GET /api/subscription': { body: subscription({ leadRemovalAt: null }) } } });
    await waitFor(() => expect(sentPayloads(removed.fetchMock, 'GET', '/api/subscription')).toHaveLength(1));
    expect(screen.queryByRole('alert', { name: /will be removed/ })).not.toBeInTheDocument();
    removed.unmount();

    // Without paused pages only the upgrade offer reads the plan (once), and no banner shows.
    const none = await openDashboard([live], { routes: { 'GET /api/subscription': { body: subscription({ leadRemovalAt: '2026-12-24T10:00:00.000Z' }) } } });
    await waitFor(() => expect(sentPayloads(none.fetchMock, 'GET', '/api/subscription')).toHaveLength(1));
    expect(screen.queryByRole('alert', { name: /will be removed/ })).not.toBeInTheDocument();
    none.unmount();

    const pro = await openDashboard([live, { ...paused }], { isPremium: true, routes: proPlanStillActive });
    expect(screen.queryByRole('alert', { name: /will be removed/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Keep this page live' })).not.toBeInTheDocument();
    expect(sentPayloads(pro.fetchMock, 'GET', '/api/subscription')).toHaveLength(0);
  });
});
