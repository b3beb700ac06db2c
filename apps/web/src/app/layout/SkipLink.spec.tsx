import { screen } from '@testing-library/react';
import { type MockRoutes, mockFetch, noPages, signedInAs, signedOut, slugsAvailable } from '../../test/fetch-mock';
import { renderApp } from '../../test/render-app';

describe('"Skip to main content"', () => {
  it.each<[string, string, MockRoutes, string]>([
    ['home page', '/', signedOut, 'Collect emails fast'],
    ['login', '/auth', signedOut, 'Welcome back'],
    ['dashboard', '/dashboard', { ...signedInAs(), ...noPages }, 'Dashboard'],
    ['editor', '/editor/new?template=blank', { ...signedInAs(), ...noPages, ...slugsAvailable }, 'Create Page'],
  ])('is the first Tab stop on the %s and takes the keyboard past the navbar', async (_screen, url, routes, heading) => {
    mockFetch(routes);
    const { user, location } = renderApp(url);
    await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 10_000 });

    await user.tab();
    const skipLink = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skipLink).toHaveFocus();

    const before = location();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(location()).toBe(before);

    // The next Tab goes on inside the screen, not back to the navbar's links.
    await user.tab();
    expect(main).toContainElement(document.activeElement as HTMLElement);
  });
});
