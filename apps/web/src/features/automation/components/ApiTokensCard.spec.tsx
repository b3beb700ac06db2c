import { screen, within } from '@testing-library/react';
import type { ApiTokenDto, HookWithDeliveriesDto } from '@plink/contracts';
import { freePlan, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const zapier: ApiTokenDto = { id: 7, name: 'Zapier', createdAt: '2026-12-01T10:00:00.000Z', lastUsedAt: null };
const hook: HookWithDeliveriesDto = {
  id: 3,
  event: 'lead.created',
  target_url: 'https://hooks.zapier.com/hooks/standard/1/abc',
  page_id: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  deliveries: [{ id: 'msg_x', leadId: 41, createdAt: '2026-12-01T11:00:00.000Z', status: 'delivered', attempts: [{ at: '2026-12-01T11:00:00.100Z', status: 200, error: null, durationMs: 80 }] }],
};

async function openSettings(routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs(), ...freePlan, 'GET /api/tokens': { body: [zapier] }, 'GET /api/hooks': { body: [hook] }, ...routes });
  const rendered = renderApp('/settings?tab=account');
  await screen.findByRole('heading', { name: 'API tokens' });
  return { fetchMock, ...rendered };
}

const tokensCard = () => screen.getByRole('heading', { name: 'API tokens' }).closest('.mantine-Card-root') as HTMLElement;

describe('Settings → API tokens', () => {
  it('lists the tokens with name, creation and last use', async () => {
    await openSettings();
    const card = within(tokensCard());
    expect(await card.findByText('Zapier')).toBeInTheDocument();
    expect(card.getByText('Never')).toBeInTheDocument();
  });

  it('makes a token and shows it once, with a Copy button', async () => {
    const token = `plk_${'A1b2'.repeat(10)}xyz`;
    const { user, fetchMock } = await openSettings({ 'POST /api/tokens': { status: 201, body: { id: 8, name: 'n8n', token, createdAt: '2026-12-02T10:00:00.000Z' } } });
    await user.click(within(tokensCard()).getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an API token' });
    await user.type(within(dialog).getByLabelText('Name'), ' n8n ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new API token' });
    expect(within(shown).getByText(token)).toBeInTheDocument();
    expect(within(shown).getByText('Copy it now: it is shown only this once.')).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/tokens')).toEqual([{ name: 'n8n' }]);
  });

  it('asks before revoking, then revokes', async () => {
    const { user, fetchMock } = await openSettings({ 'DELETE /api/tokens/7': { status: 204 } });
    await user.click(await within(tokensCard()).findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    expect(fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    expect(await findToast('Token revoked')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'DELETE')).toHaveLength(1);
  });
});

describe('Settings → Automations', () => {
  it('lists each subscription with its target, page and recent deliveries', async () => {
    await openSettings();
    const card = within(screen.getByRole('heading', { name: 'Automations' }).closest('.mantine-Card-root') as HTMLElement);
    expect(await card.findByText(hook.target_url)).toBeInTheDocument();
    expect(card.getByText(/All pages/)).toBeInTheDocument();
    expect(card.getByText('delivered')).toBeInTheDocument();
    expect(card.getByText(/Lead #41 .* HTTP 200/)).toBeInTheDocument();
  });

  it('removes a subscription whose tool is gone', async () => {
    const { user, fetchMock } = await openSettings({ 'DELETE /api/hooks/3': { status: 204 } });
    const card = within(screen.getByRole('heading', { name: 'Automations' }).closest('.mantine-Card-root') as HTMLElement);
    await user.click(await card.findByRole('button', { name: 'Remove' }));
    await screen.findByText(hook.target_url);
    expect(fetchMock.mock.calls.some(([input, init]) => String(input) === '/api/hooks/3' && (init as RequestInit | undefined)?.method === 'DELETE')).toBe(true);
  });
});
