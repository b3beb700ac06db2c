import { screen, within } from '@testing-library/react';
import { makePage, makeStats, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const page = makePage({ id: 7, title: 'Free Guide', slug: 'free-guide' });

function openStats(url: string, routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs(), ...routes });
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
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(1 + 10);
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
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('waiting@example.comPending');
    expect(rows[2]).not.toHaveTextContent('Pending');
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
