import { screen, within } from '@testing-library/react';
import { freePlan, mockFetch, noPages, signedInAs, signedOut } from '../../test/fetch-mock';
import { findToast, renderApp } from '../../test/render-app';

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

describe('Navbar', () => {
  it('offers the home page sections and a login to visitors', async () => {
    mockFetch(signedOut);
    renderApp('/terms');

    expect(await nav().findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth');
    expect(nav().getByRole('link', { name: 'Features' })).toHaveAttribute('href', '/#features');
    expect(nav().getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');
    expect(nav().getByRole('link', { name: 'Examples' })).toHaveAttribute('href', '/#examples');
  });

  it('gives a signed-in user the account menu, and logs out to the home page', async () => {
    const fetchMock = mockFetch({ ...signedInAs({ username: 'ana' }), ...freePlan, 'POST /api/logout': { body: {} } });
    const { user, location } = renderApp('/settings');

    expect(await nav().findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    await user.click(nav().getByRole('button', { name: 'ana' }));
    const menu = within(await screen.findByRole('menu'));
    expect(await menu.findByRole('menuitem', { name: 'New page' })).toHaveAttribute('href', '/editor/new');
    expect(menu.getByText('My Account')).toBeInTheDocument();
    expect(menu.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');

    await user.click(menu.getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'Collect emails fast' })).toBeInTheDocument();
    expect(location()).toBe('/');
    expect(nav().getByRole('link', { name: 'Log in' })).toBeInTheDocument();
    // Logged out without asking the server who is signed in again.
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/user')).toHaveLength(1);
  });

  it('keeps the user signed in when logout fails', async () => {
    mockFetch({
      ...signedInAs({ username: 'ana' }),
      ...noPages,
      'POST /api/logout': { status: 500, body: { message: 'Redis down' } },
    });
    const { user, location } = renderApp('/dashboard');

    await user.click(await nav().findByRole('button', { name: 'ana' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await findToast('Logout failed')).toHaveTextContent('Redis down');
    expect(location()).toBe('/dashboard');
  });
});
