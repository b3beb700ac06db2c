import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makePage, makeStats, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const page = makePage({ id: 7, title: 'Free Guide', slug: 'free-guide' });

const noLeads = { body: { leads: [], total: 0, page: 1, pageSize: 25 } };

function openStats(url: string, routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs(), 'GET /api/pages/7/leads': noLeads, ...routes });
  return { fetchMock, ...renderApp(url) };
}

describe('/stats/:id', () => {
  it('shows the figures, the first 10 leads and how many there are', async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(12, 96) },
    });

    expect(await screen.findByRole('heading', { name: 'Free Guide' })).toBeInTheDocument();
    expect(await screen.findByText('Showing 10 of 12 leads.')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Recent leads' })).getAllByRole('row');
    expect(rows).toHaveLength(1 + 10);
    expect(within(rows[0]).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Email', 'Date', 'Consent']);
    expect(within(rows[1]).getByRole('button', { name: 'Consent record of lead12@example.com' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('lead12@example.com');
    expect(screen.queryByText('lead2@example.com')).not.toBeInTheDocument();
    expect(screen.getByText('Views').parentElement).toHaveTextContent('96');
    expect(screen.getByText('Conversions').parentElement).toHaveTextContent('12');
    expect(screen.getByText('Conversion rate').parentElement).toHaveTextContent('12.5%');

    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Download Leads' })).toHaveAttribute('href', '/api/pages/7/export');
    const live = screen.getByRole('link', { name: 'View Live Page' });
    expect(live).toHaveAttribute('href', '/free-guide');
    expect(live).toHaveAttribute('target', '_blank');
  });

  it('shows leads added through the API apart, and a conversion rate of the visits only', async () => {
    // 3 visitors; 2 leads came through the page and 5 through the API (a tool that imported them).
    const stats = makeStats(7, 3);
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': {
        body: {
          ...stats,
          conversionsWithoutVisit: { api: 5, html: 0 },
          conversionRate: 66.7,
          totals: { ...stats.totals, views: 3, uniques: 3, leads: 7, leadsWithoutVisit: { api: 4, html: 1 }, conversionRate: 66.7, visitorConversionRate: 66.7 },
        },
      },
    });

    expect(await screen.findByText('Conversion rate')).toBeInTheDocument();
    expect(screen.getByText('Conversions').parentElement).toHaveTextContent('7');
    expect(screen.getByText('Conversion rate').parentElement).toHaveTextContent('66.7%');
    expect(screen.getByTestId('conversions-without-visit')).toHaveTextContent(
      '5 leads added through the API (no page view was counted for them, so the conversion rate leaves them out).',
    );
    expect(await screen.findByText('Visitor conversion')).toBeInTheDocument();
    expect(screen.getByText('Visitor conversion').parentElement).toHaveTextContent('66.7%');
    expect(screen.getByTestId('period-leads-without-visit')).toHaveTextContent('4 leads added through the API and 1 lead from the plain HTML form on other sites');
  });

  it('says nothing of leads without a visit when every lead came through one', async () => {
    openStats('/stats/7', { 'GET /api/pages/7': { body: page }, 'GET /api/pages/7/stats': { body: makeStats(12, 96) } });
    expect(await screen.findByText('Visitor conversion')).toBeInTheDocument();
    expect(screen.queryByText(/added through the API/)).not.toBeInTheDocument();
  });

  it('shows double opt-in sign-ups that wait for their confirmation apart from the conversions, and marks them', async () => {
    const stats = makeStats(3, 30);
    stats.leads[0] = { ...stats.leads[0], email: 'waiting@example.com', status: 'pending' };
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: { ...stats, conversions: 2, pending: 1, conversionRate: 6.7 } },
    });

    expect(await screen.findByText('1 sign-up is waiting for e-mail confirmation (not counted as conversions yet).')).toBeInTheDocument();
    expect(screen.getByText('Conversions').parentElement).toHaveTextContent('2');
    expect(screen.getByText('Showing 3 of 3 leads.')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Recent leads' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('waiting@example.comPending');
    expect(rows[2]).not.toHaveTextContent('Pending');
  });

  it("opens a lead's consent record: the text shown, when, from where, and the record as a JSON file", async () => {
    const record = {
      leadId: 12,
      pageId: 7,
      email: 'lead12@example.com',
      consentShown: true,
      consentAt: '2025-03-01T12:00:00.000Z',
      consentText: 'I agree to the privacy policy',
      consentVersion: 'c0ffee'.repeat(10) + 'beef',
      privacyUrl: 'https://plink.test/privacy',
      signup: { at: '2025-03-01T12:00:01.000Z', ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' },
      confirmation: null,
    };
    const { fetchMock } = openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(12, 96) },
      'GET /api/pages/7/leads/12/consent': { body: record },
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Consent record of lead12@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Consent record' });
    expect(await within(dialog).findByText('“I agree to the privacy policy”')).toBeInTheDocument();
    expect(within(dialog).getByText('lead12@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText(record.consentVersion)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'https://plink.test/privacy' })).toHaveAttribute('href', 'https://plink.test/privacy');
    expect(within(dialog).getByText('203.0.113.7 · Mozilla/5.0 (X11; Linux x86_64)')).toBeInTheDocument();
    expect(within(dialog).getByText('Not asked')).toBeInTheDocument();
    const download = within(dialog).getByRole('link', { name: 'Download JSON' });
    expect(download).toHaveAttribute('href', '/api/pages/7/leads/12/consent');
    expect(download).toHaveAttribute('download', 'consent-record-lead-12.json');
    expect(sentPayloads(fetchMock, 'GET', '/api/pages/7/leads/12/consent')).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says so when the page showed no consent text and the install keeps no addresses', async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(1, 4) },
      'GET /api/pages/7/leads/1/consent': {
        body: {
          leadId: 1,
          pageId: 7,
          email: 'lead1@example.com',
          consentShown: false,
          consentAt: null,
          consentText: null,
          consentVersion: null,
          privacyUrl: null,
          signup: { at: '2025-03-01T12:00:00.000Z', ip: null, userAgent: null },
          confirmation: null,
        },
      },
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Consent record of lead1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Consent record' });
    expect(await within(dialog).findByText('None: the page hid its privacy checkbox')).toBeInTheDocument();
    expect(within(dialog).getByText('Not kept on this server')).toBeInTheDocument();
    expect(within(dialog).queryByText('Privacy link shown')).not.toBeInTheDocument();
  });

  it('shows the sign-ups the bot shield refused, in all and per reason', async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(3, 40, { token: 41, timing: 2, honeypot: 5, disposable: 1 }) },
    });

    const blocked = await screen.findByRole('heading', { name: 'Blocked: 49' });
    const card = blocked.closest('[aria-labelledby="stats-blocked"]') as HTMLElement;
    const figure = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(figure('No valid form token')).toHaveTextContent('41');
    expect(figure('Sent too fast')).toHaveTextContent('2');
    expect(figure('Hidden field filled')).toHaveTextContent('5');
    expect(figure('Throwaway address')).toHaveTextContent('1');
    expect(figure('Domain gets no mail')).toHaveTextContent('0');
    expect(figure('Too many from one address')).toHaveTextContent('0');
    expect(within(card).getByText('Sign-ups refused as bots or unusable addresses. None of them was stored.')).toBeInTheDocument();
  });

  it('asks for the range picked (UTC days), and shows its totals with the change, the chart and where visitors came from', async () => {
    jest.useFakeTimers({ now: new Date('2025-03-10T15:00:00Z'), advanceTimers: true });
    try {
      const stats = makeStats(2, 40);
      const ranged = {
        ...stats,
        range: { from: '2025-03-04', to: '2025-03-10' },
        series: [{ day: '2025-03-10', views: 40, uniques: 25, leads: 2 }],
        totals: { ...stats.totals, views: 40, uniques: 25, leads: 2, visitorConversionRate: 8, previous: { views: 20, uniques: 20, leads: 4 }, change: { views: 100, uniques: 25, leads: -50 } },
        breakdowns: {
          referrers: [{ value: 'news.example', views: 30, leads: 2, conversionRate: 6.7 }],
          utmCampaigns: [{ value: 'spring', views: 12, leads: 1, conversionRate: 8.3 }],
          utmSources: [],
          devices: [{ value: 'phone', views: 40, leads: 2, conversionRate: 5 }],
        },
      };
      const { fetchMock } = openStats('/stats/7', {
        'GET /api/pages/7': { body: { ...page, createdAt: '2025-01-15T10:00:00.000Z' } },
        'GET /api/pages/7/stats': { body: stats },
        'GET /api/pages/7/stats?from=2025-03-04&to=2025-03-10': { body: ranged },
      });

      const chart = await screen.findByRole('img', { name: /Chart of views, unique visitors and leads per day/ });
      // The chart draws its three series, each named in its legend.
      for (const series of ['Views', 'Unique visitors', 'Leads']) expect(await within(chart).findByText(series)).toBeInTheDocument();
      expect(screen.getByText(/Days are UTC days/)).toBeInTheDocument();
      // 30 days by default; then the last 7, and all time from the page's creation day.
      const asked = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((u) => u.startsWith('/api/pages/7/stats'));
      expect(asked()).toEqual(['/api/pages/7/stats?from=2025-02-09&to=2025-03-10']);
      await userEvent.click(screen.getByRole('radio', { name: '7 days' }));
      expect(await screen.findByText('+100% vs previous period')).toBeInTheDocument();
      expect(screen.getByText('Period views').parentElement).toHaveTextContent('40');
      const uniquesTotal = screen.getAllByText('Unique visitors', { selector: 'p' }).find((p) => !chart.contains(p));
      expect(uniquesTotal?.parentElement).toHaveTextContent('25');
      expect(screen.getByText('−50% vs previous period')).toBeInTheDocument();
      expect(screen.getByText('Visitor conversion').parentElement).toHaveTextContent('8.0%');
      const referrers = screen.getByRole('table', { name: 'Top referrers' });
      expect(within(referrers).getAllByRole('row')[1]).toHaveTextContent(/news\.example\s*30\s*2\s*6\.7%/);
      expect(within(screen.getByRole('table', { name: 'UTM campaigns' })).getByText('spring')).toBeInTheDocument();
      expect(within(screen.getByRole('table', { name: 'Devices' })).getByText('phone')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('radio', { name: 'All time' }));
      await screen.findByText('No earlier data to compare', {}, { timeout: 2000 }).catch(() => undefined);
      expect(asked()).toContain('/api/pages/7/stats?from=2025-01-15&to=2025-03-10');
    } finally {
      jest.useRealTimers();
    }
  });

  it('lists all leads 25 a page with their source, and searches them by e-mail', async () => {
    const lead = (i: number) => ({
      id: i,
      email: `reader${i}@example.com`,
      createdAt: '2025-03-01T12:00:00.000Z',
      status: 'confirmed' as const,
      referrer: 't.co',
      ref: null,
      source: null,
      utmSource: 'ig',
      utmMedium: null,
      utmCampaign: 'launch',
      device: 'phone',
      sourceLabel: 'ig',
    });
    const { fetchMock } = openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(30, 96) },
      'GET /api/pages/7/leads?page=1': { body: { leads: Array.from({ length: 25 }, (_, i) => lead(30 - i)), total: 30, page: 1, pageSize: 25 } },
      'GET /api/pages/7/leads?page=2': { body: { leads: [5, 4, 3, 2, 1].map(lead), total: 30, page: 2, pageSize: 25 } },
      'GET /api/pages/7/leads?page=1&search=reader3': { body: { leads: [lead(30), lead(3)], total: 2, page: 1, pageSize: 25 } },
    });

    const table = await screen.findByRole('table', { name: 'All leads' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Email', 'Date', 'Source', 'Referrer', 'Campaign', 'Device']);
    expect(await within(table).findByText('reader30@example.com')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 25);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/reader30@example\.com.*ig\s*t\.co\s*launch\s*phone/);
    expect(screen.getByText('30 leads.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await within(table).findByText('reader5@example.com')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search leads by email' }), 'reader3');
    expect(await screen.findByText('2 leads found.', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/pages/7/leads?page=1&search=reader3');
  });

  it('deletes one lead or a selection after a confirmation, and reads the counts again', async () => {
    const lead = (i: number) => ({
      id: i,
      email: `reader${i}@example.com`,
      createdAt: '2025-03-01T12:00:00.000Z',
      status: 'confirmed' as const,
      referrer: null,
      ref: null,
      source: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      device: null,
      sourceLabel: null,
    });
    let ids = [3, 2, 1];
    const { fetchMock } = openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': () => ({ body: makeStats(ids.length, 96) }),
      'GET /api/pages/7/leads?page=1': () => ({ body: { leads: ids.map(lead), total: ids.length, page: 1, pageSize: 25 } }),
      'POST /api/pages/7/leads/delete': (payload: unknown) => {
        const body = payload as { ids: number[] };
        ids = ids.filter((id) => !body.ids.includes(id));
        return { body: { deleted: body.ids.length, message: body.ids.length === 1 ? '1 lead deleted' : `${body.ids.length} leads deleted` } };
      },
    });
    const table = await screen.findByRole('table', { name: 'All leads' });
    await within(table).findByText('reader3@example.com');

    // One lead: its button, then the dialog; Cancel changes nothing.
    await userEvent.click(within(table).getByRole('button', { name: 'Delete reader2@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this lead?' });
    expect(dialog).toHaveTextContent('They are removed now: from this list, the export and the counts, and no webhook is sent for them any more.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/leads/delete')).toHaveLength(0);
    await userEvent.click(within(table).getByRole('button', { name: 'Delete reader2@example.com' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this lead?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(table).queryByText('reader2@example.com')).not.toBeInTheDocument());
    expect(await screen.findByText('2 leads.')).toBeInTheDocument();
    expect(screen.getByText('Conversions').parentElement).toHaveTextContent('2');

    // A selection: every lead shown.
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select all leads shown' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete 2 leads?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('0 leads.')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/leads/delete')).toEqual([{ ids: [2] }, { ids: [3, 1] }]);
  });

  it('counts fewer than 10 leads as they are, and 0% without views', async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { body: page },
      'GET /api/pages/7/stats': { body: makeStats(3, 0) },
    });

    expect(await screen.findByText('Showing 3 of 3 leads.')).toBeInTheDocument();
    expect(screen.getByText('Conversion rate').parentElement).toHaveTextContent('0%');
  });

  it("says 'Page not found' for another user's or a deleted page", async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { status: 404, body: { message: 'Page not found' } },
      'GET /api/pages/7/stats': { status: 404, body: { message: 'Page not found' } },
    });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it("says 'Error loading page' with the reason for other failures", async () => {
    openStats('/stats/7', {
      'GET /api/pages/7': { status: 503, body: { message: 'Service unavailable' } },
      'GET /api/pages/7/stats': { status: 503, body: { message: 'Service unavailable' } },
    });

    expect(await screen.findByRole('heading', { name: 'Error loading page' })).toBeInTheDocument();
    expect(screen.getByText('Service unavailable')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toBeInTheDocument();
  });

  it('asks the server nothing for an id that cannot be a page', async () => {
    const { fetchMock } = openStats('/stats/abc');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/user']);
    expect(sentPayloads(fetchMock, 'GET', '/api/pages/abc')).toHaveLength(0);
  });
});
