import { screen } from '@testing-library/react';
import { mockFetch, noPages, signedInAs, signedOut } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

describe('/ home page', () => {
  it('invites visitors to register and shows the example pages', async () => {
    mockFetch(signedOut);
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Collect emails fast' })).toBeInTheDocument();
    expect(screen.getAllByText('Beautiful landing pages in seconds')[0]).toBeVisible();
    const [heroCta] = screen.getAllByRole('link', { name: 'Get Started Free' });
    expect(heroCta).toHaveAttribute('href', '/auth?tab=register');
    expect(screen.getByRole('link', { name: 'See Examples' })).toHaveAttribute('href', '/#examples');
    for (const [slug, title] of [
      ['photo-guide', 'Free Photography Cheat Sheet'],
      ['startupwkly', 'Startup Weekly'],
      ['saas-waitlist', 'Join the Waitlist'],
    ]) {
      expect(screen.getByText(`localhost/${slug}`).closest('a')).toHaveAttribute('href', `/${slug}`);
      expect(screen.getByRole('link', { name: `Use this template: ${title}` })).toHaveAttribute(
        'href',
        `/auth?tab=register&template=${slug}`,
      );
    }
  });

  it('sends a signed-in user to the dashboard', async () => {
    mockFetch({ ...signedInAs(), ...noPages });
    const { location } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/dashboard');
  });

  it('answers unknown paths with the 404 page', async () => {
    mockFetch(signedOut);
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });
});
