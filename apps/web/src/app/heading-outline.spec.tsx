import { screen } from '@testing-library/react';
import { type MockRoutes, freePlan, makeSubscription, mockFetch, signedInAs, signedOut } from '../test/fetch-mock';
import { renderApp } from '../test/render-app';

/** The headings a screen reader lists for the screen, in page order, as "h{level} {text}". */
const outline = () =>
  screen.getAllByRole('heading').map((heading) => `h${heading.getAttribute('aria-level') ?? heading.tagName.slice(1)} ${heading.textContent}`);

/** Levels of an outline that go down more than one step at a time (an h3 straight after an h1). */
const skippedLevels = (headings: string[]) =>
  headings.filter((heading, index) => index > 0 && Number(heading[1]) > Number(headings[index - 1][1]) + 1);

const pending = () => new Promise<never>(() => undefined);

describe('heading outline: each screen starts with its one h1 and skips no level', () => {
  it.each<[string, string, MockRoutes, string]>([
    ['login', '/auth', signedOut, 'Welcome back'],
    ['register', '/auth?tab=register', signedOut, 'Create an account'],
    ['forgot password', '/forgot-password', signedOut, 'Forgot your password?'],
    ['reset password', '/reset-password?token=good', { ...signedOut, 'GET /api/verify-reset-token/good': { body: { valid: true } } }, 'Reset your password'],
    ['not found', '/no-such-screen', signedOut, '404 Page Not Found'],
    [
      'checkout',
      '/checkout?plan=pro',
      { ...signedInAs(), 'GET /api/subscription': { body: makeSubscription() }, 'POST /api/create-subscription': pending },
      'Upgrade to Pro',
    ],
    ['settings', '/settings', { ...signedInAs(), ...freePlan }, 'Settings'],
  ])('%s', async (_screen, url, routes, title) => {
    mockFetch(routes);
    renderApp(url);

    expect(await screen.findByRole('heading', { level: 1, name: title }, { timeout: 10_000 })).toBeInTheDocument();
    const headings = outline();
    expect(headings[0]).toBe(`h1 ${title}`);
    expect(headings.filter((heading) => heading.startsWith('h1'))).toHaveLength(1);
    expect(skippedLevels(headings)).toEqual([]);
  });
});
