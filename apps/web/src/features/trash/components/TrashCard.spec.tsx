import { screen, waitFor, within } from '@testing-library/react';
import type { TrashedPageDto } from '@plink/contracts';
import { freePlan, mockFetch, sentPayloads, signedInAs, type MockRoutes } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const guide: TrashedPageDto = { id: 1, slug: 'free-guide', title: 'Free Guide', deletedAt: '2026-11-20T10:00:00.000Z', purgeAt: '2026-12-04T10:00:00.000Z' };
const waitlist: TrashedPageDto = { id: 2, slug: 'waitlist', title: 'Waitlist', deletedAt: '2026-11-19T10:00:00.000Z', purgeAt: '2026-12-03T10:00:00.000Z' };

async function openTrash(routes: MockRoutes) {
  const fetchMock = mockFetch({ ...signedInAs(), ...freePlan, ...routes });
  const rendered = renderApp('/settings');
  const card = await screen.findByTestId('trash');
  return { fetchMock, card, ...rendered };
}

describe('Settings → Trash', () => {
  it('lists deleted pages with when they go for good', async () => {
    const { card } = await openTrash({ 'GET /api/trash': { body: [guide] } });
    expect(within(card).getByRole('heading', { name: 'Trash' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Deleted pages stay here for 14 days. Then they are removed for good, with their leads, statistics and uploaded images.');
    const row = await within(card).findByRole('group', { name: 'Free Guide' });
    expect(row).toHaveTextContent('/free-guide');
    expect(row).toHaveTextContent(/removed for good on .*2026/);
  });

  it('restores a page and lists the Trash again', async () => {
    let trash = [guide, waitlist];
    const { user, card, fetchMock } = await openTrash({
      'GET /api/trash': () => ({ body: trash }),
      'GET /api/pages': { body: [] },
      'POST /api/pages/1/restore': () => {
        trash = [waitlist];
        return { body: {} };
      },
    });
    await user.click(within(await within(card).findByRole('group', { name: 'Free Guide' })).getByRole('button', { name: 'Restore' }));
    expect(await findToast('Page restored')).toBeInTheDocument();
    await waitFor(() => expect(within(card).queryByRole('group', { name: 'Free Guide' })).not.toBeInTheDocument());
    expect(within(card).getByRole('group', { name: 'Waitlist' })).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/1/restore')).toHaveLength(1);
  });

  it("shows the server's reason when a restore is refused (Free plan, another page active)", async () => {
    const message = 'Free plan users can only have one active landing page. Delete your other page or upgrade to Pro to restore this one.';
    const { user, card } = await openTrash({ 'GET /api/trash': { body: [guide] }, 'POST /api/pages/1/restore': { status: 403, body: { message } } });
    await user.click(within(await within(card).findByRole('group', { name: 'Free Guide' })).getByRole('button', { name: 'Restore' }));
    const toast = await findToast('Error');
    expect(toast).toHaveTextContent(message);
    expect(within(card).getByRole('group', { name: 'Free Guide' })).toBeInTheDocument();
  });

  it('deletes forever only after a confirmation', async () => {
    let trash = [guide];
    const { user, card, fetchMock } = await openTrash({
      'GET /api/trash': () => ({ body: trash }),
      'GET /api/pages': { body: [] },
      'DELETE /api/trash/1': () => {
        trash = [];
        return { body: { message: 'Page deleted forever' } };
      },
    });
    await user.click(within(await within(card).findByRole('group', { name: 'Free Guide' })).getByRole('button', { name: 'Delete forever' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this page forever?' });
    expect(dialog).toHaveTextContent('The page, its leads, statistics and uploaded images are removed now. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sentPayloads(fetchMock, 'DELETE', '/api/trash/1')).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Delete forever' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this page forever?' })).getByRole('button', { name: 'Delete forever' }));
    expect(await findToast('Page deleted forever')).toBeInTheDocument();
    expect(await within(card).findByText('The Trash is empty.')).toBeInTheDocument();
  });
});
