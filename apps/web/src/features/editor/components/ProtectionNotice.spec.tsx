import { screen } from '@testing-library/react';
import { makePage, type MockRoutes, mockFetch, signedInAs } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const page = makePage({ id: 7, slug: 'flooded' });
const UNTIL = '2026-11-28T04:40:00.000Z';

async function openSettings(routes: MockRoutes) {
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium: false, username: 'ana' }),
    'GET /api/pages': { body: [page] },
    'GET /api/pages/7': { body: page },
    ...routes,
  });
  const rendered = renderApp('/editor/7');
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  return { fetchMock, ...rendered };
}

describe('the "under attack" notice of the Settings tab', () => {
  it('says until when visitors confirm by e-mail, and its button ends it', async () => {
    const { user, fetchMock } = await openSettings({
      'GET /api/pages/7/protection': { body: { underAttackUntil: UNTIL } },
      'DELETE /api/pages/7/protection': { body: { underAttackUntil: null } },
    });
    const notice = await screen.findByTestId('protection-notice');
    expect(notice).toHaveTextContent(`Bot sign-ups detected: visitors confirm by e-mail until ${new Date(UNTIL).toLocaleString()}.`);

    await user.click(screen.getByRole('button', { name: 'End confirm-by-e-mail' }));
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/pages/7/protection' && init?.method === 'DELETE')).toBe(true);
    expect(await screen.findByText('Confirm-by-e-mail ended')).toBeInTheDocument();
    expect(screen.queryByTestId('protection-notice')).not.toBeInTheDocument();
  });

  it('shows nothing while the page is not under attack', async () => {
    await openSettings({});
    await screen.findByText('Ask visitors to confirm their e-mail');
    expect(screen.queryByTestId('protection-notice')).not.toBeInTheDocument();
    expect(screen.queryByText(/Bot sign-ups detected/)).not.toBeInTheDocument();
  });
});
