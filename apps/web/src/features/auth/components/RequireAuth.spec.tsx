import { screen } from '@testing-library/react';
import { mockFetch, noPages, signedInAs, signedOut } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

describe('login routes', () => {
  it.each(['/dashboard', '/settings', '/editor/new', '/stats/7', '/checkout?plan=pro'])(
    'send an anonymous visitor of %s to /auth',
    async (url) => {
      mockFetch(signedOut);
      const { location } = renderApp(url);

      expect(screen.getByRole('status')).toHaveTextContent('Loading...');
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
      expect(location()).toBe('/auth');
    },
  );

  it.each(['/dashboard', '/settings', '/editor/new', '/editor/4', '/stats/7', '/checkout?plan=pro', '/checkout/success?session_id=cs_1'])(
    'send an unverified user of %s to /verify-prompt, which says why',
    async (url) => {
      mockFetch(signedInAs({ isVerified: false, email: 'ana@example.com' }));
      const { location } = renderApp(url);

      expect(screen.getByTestId('brand-loader')).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'Please verify your email' })).toBeInTheDocument();
      expect(screen.getByText('Verification is required before you can create a page.')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
      expect(location()).toBe('/verify-prompt');
    },
  );

  it('let a signed-in user in', async () => {
    mockFetch({ ...signedInAs({ isPremium: false }), ...noPages });
    const { location } = renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/checkout?plan=pro');
    expect(location()).toBe('/dashboard');
  });
});
