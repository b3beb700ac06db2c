import { screen, within } from '@testing-library/react';
import { AccountDataMessages, type AccountExport } from '@plink/contracts';
import { freePlan, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const exportOf = (status: AccountExport['status']): AccountExport => ({
  id: '5f0c1f4e-1111-4222-8333-944445555666',
  status,
  createdAt: '2026-12-12T10:00:00.000Z',
  expiresAt: status === 'ready' ? '2026-12-13T10:00:00.000Z' : null,
  size: status === 'ready' ? 2_400_000 : null,
});

async function openCard(routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs({}), ...freePlan, ...routes });
  const rendered = renderApp('/settings?tab=account');
  const heading = await screen.findByRole('heading', { name: 'Export my data' });
  return { fetchMock, card: within(heading.closest('.mantine-Card-root') as HTMLElement), ...rendered };
}

describe('/settings account: export my data', () => {
  it('starts an export, shows it being prepared, then the download link once ready', async () => {
    const answers = [{ export: null }, { export: exportOf('pending') }, { export: exportOf('ready') }];
    const { user, card, fetchMock } = await openCard({
      'POST /api/account/export': { status: 202, body: { id: exportOf('pending').id } },
      'GET /api/account/export': () => ({ body: answers.length > 1 ? answers.shift() : answers[0] }),
    });
    await user.click(await card.findByRole('button', { name: 'Export my data' }));
    expect(await card.findByText('Preparing your export…')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/account/export')).toHaveLength(1);

    const link = await card.findByRole('link', { name: 'Download ZIP (2.3 MB)' }, { timeout: 5_000 });
    expect(link).toHaveAttribute('href', `/api/account/export/${exportOf('ready').id}`);
    expect(card.getByRole('button', { name: 'Export my data' })).toBeInTheDocument();
  });

  it('toasts a refusal (an export already being built)', async () => {
    const { user, card } = await openCard({ 'POST /api/account/export': { status: 409, body: { message: AccountDataMessages.exportBusy } } });
    await user.click(await card.findByRole('button', { name: 'Export my data' }));
    expect(await findToast('Export not started')).toHaveTextContent(AccountDataMessages.exportBusy);
  });

  it('says when the last export failed', async () => {
    const { card } = await openCard({ 'GET /api/account/export': { body: { export: exportOf('failed') } } });
    expect(await card.findByText('The last export failed. Please try again.')).toBeInTheDocument();
  });
});
