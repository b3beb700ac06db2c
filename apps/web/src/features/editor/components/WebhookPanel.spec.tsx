import { act, screen, within } from '@testing-library/react';
import type { WebhookDeliveryDto, WebhookDto } from '@plink/contracts';
import { contrast } from '../../../test/contrast';
import { makePage, type MockRoutes, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3';
const page = makePage({ id: 7, slug: 'hooked', webhookUrl: 'https://hooks.example.com/catch' });

function delivery(overrides: Partial<WebhookDeliveryDto> = {}): WebhookDeliveryDto {
  return {
    id: 'msg_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    eventType: 'lead.created',
    test: false,
    createdAt: '2026-11-24T10:00:00.000Z',
    status: 'delivered',
    attempts: [{ at: '2026-11-24T10:00:00.100Z', url: 'https://hooks.example.com/catch', status: 200, error: null, durationMs: 42, response: 'thanks' }],
    nextAttemptAt: null,
    ...overrides,
  };
}

function webhook(overrides: Partial<WebhookDto> = {}): WebhookDto {
  return { url: 'https://hooks.example.com/catch', enabled: true, secret: SECRET, disabledReason: null, deliveries: [delivery()], ...overrides };
}

async function openSettings(routes: MockRoutes, { isPremium = true } = {}) {
  const fetchMock = mockFetch({
    ...signedInAs({ isPremium, username: 'ana' }),
    'GET /api/pages': { body: [page] },
    'GET /api/pages/7': { body: page },
    ...routes,
  });
  const rendered = renderApp('/editor/7');
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  await rendered.user.click(screen.getByRole('tab', { name: 'Settings' }));
  return { fetchMock, ...rendered };
}

describe('the webhook panel of the Settings tab', () => {
  it('shows the secret with copy (copied for 2 s) and the deliveries with their attempts', async () => {
    const { user } = await openSettings({ 'GET /api/pages/7/webhook': { body: webhook() } });

    const panel = within(await screen.findByTestId('webhook-panel'));
    expect(panel.getByText('Active')).toBeInTheDocument();
    // The green badges' text reads at 4.5:1 on their pale green.
    const badgeOf = (text: string) => panel.getByText(text).closest<HTMLElement>('.mantine-Badge-root')!;
    expect(contrast(badgeOf('Active'), '--badge-color', '--badge-bg')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(badgeOf('delivered'), '--badge-color', '--badge-bg')).toBeGreaterThanOrEqual(4.5);
    expect(panel.getByTestId('webhook-secret')).toHaveTextContent(SECRET);
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.click(panel.getByRole('button', { name: 'Copy' }));
      // user-event's clipboard stands in for the browser's.
      expect(await navigator.clipboard.readText()).toBe(SECRET);
      expect(await panel.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
      await act(async () => {
        jest.advanceTimersByTime(2_100);
      });
      expect(panel.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }

    // A panel of unknown (or wide) width shows the table.
    expect(panel.getByRole('table', { name: 'Deliveries' })).toBeInTheDocument();
    const rows = panel.getAllByTestId('delivery-row');
    expect(rows).toHaveLength(1);
    expect(within(rows[0]).getByText('delivered')).toBeInTheDocument();
    expect(panel.queryByText(/HTTP 200 in 42 ms/)).not.toBeInTheDocument();
    await user.click(within(rows[0]).getByRole('button', { name: /1/ }));
    expect(panel.getByText(/HTTP 200 in 42 ms/)).toBeVisible();
    expect(panel.getByText('thanks')).toBeInTheDocument();
  });

  it('sends a test event and shows its result inline, and redelivers a message', async () => {
    const failedTest = delivery({
      id: 'msg_bbbbbbbbbbbbbbbbbbbbbbbbbb',
      test: true,
      status: 'failed',
      attempts: [{ at: '2026-11-24T10:01:00.000Z', url: 'https://hooks.example.com/catch', status: 500, error: null, durationMs: 12, response: 'oops' }],
    });
    const { user, fetchMock } = await openSettings({
      'GET /api/pages/7/webhook': { body: webhook() },
      'POST /api/pages/7/webhook/test': { body: { delivery: failedTest } },
      'POST /api/pages/7/webhook/deliveries/msg_aaaaaaaaaaaaaaaaaaaaaaaaaa/redeliver': { status: 202, body: { delivery: delivery({ status: 'pending' }) } },
    });
    const panel = within(await screen.findByTestId('webhook-panel'));
    await user.click(panel.getByRole('button', { name: 'Send test event' }));
    expect(await panel.findByTestId('webhook-test-result')).toHaveTextContent('Failed: HTTP 500 in 12 ms');

    await user.click(panel.getByRole('button', { name: 'Redeliver' }));
    expect(await findToast('Redelivery queued')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/webhook/deliveries/msg_aaaaaaaaaaaaaaaaaaaaaaaaaa/redeliver')).toHaveLength(1);
  });

  it('lists the deliveries as cards in a panel too narrow for the table (a phone), with everything the table has', async () => {
    // Every observed element reports a phone's column width (jsdom lays nothing out).
    const jsdomObserver = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe(target: Element) {
        const entry = { target, borderBoxSize: [{ inlineSize: 358, blockSize: 200 }], contentRect: { width: 358, height: 200 } };
        this.report([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    };
    try {
      const failing = delivery({
        id: 'msg_cccccccccccccccccccccccccc',
        test: true,
        status: 'failing',
        nextAttemptAt: '2026-11-24T10:05:00.000Z',
        attempts: [{ at: '2026-11-24T10:00:00.100Z', url: 'https://hooks.example.com/catch', status: 503, error: null, durationMs: 30, response: 'busy' }],
      });
      const { user, fetchMock } = await openSettings({
        'GET /api/pages/7/webhook': { body: webhook({ deliveries: [failing] }) },
        'POST /api/pages/7/webhook/deliveries/msg_cccccccccccccccccccccccccc/redeliver': { status: 202, body: { delivery: failing } },
      });
      const panel = within(await screen.findByTestId('webhook-panel'));

      const list = await panel.findByRole('list', { name: 'Deliveries' });
      expect(panel.queryByRole('table')).not.toBeInTheDocument();
      const card = within(within(list).getByTestId('delivery-row'));
      expect(card.getByText('lead.created')).toBeInTheDocument();
      expect(card.getByText('test')).toBeInTheDocument();
      expect(card.getByText('failing')).toBeInTheDocument();
      expect(card.getByText(/^Created /)).toBeInTheDocument();
      expect(card.getByText(/^next try /)).toBeInTheDocument();

      await user.click(card.getByRole('button', { name: /^1/ }));
      expect(card.getByText('webhook-id msg_cccccccccccccccccccccccccc')).toBeInTheDocument();
      expect(card.getByText(/HTTP 503 in 30 ms/)).toBeVisible();

      await user.click(card.getByRole('button', { name: 'Redeliver' }));
      expect(await findToast('Redelivery queued')).toBeInTheDocument();
      expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/webhook/deliveries/msg_cccccccccccccccccccccccccc/redeliver')).toHaveLength(1);
    } finally {
      globalThis.ResizeObserver = jsdomObserver;
    }
  });

  it('shows a webhook Plink turned off, with its reason and Re-enable', async () => {
    let enabled = false;
    const { user, fetchMock } = await openSettings({
      'GET /api/pages/7/webhook': () => ({ body: webhook({ enabled, disabledReason: enabled ? null : 'The receiver answered 410 Gone.' }) }),
      'POST /api/pages/7/webhook/enable': () => {
        enabled = true;
        return { body: { url: 'https://hooks.example.com/catch', enabled: true, secret: SECRET, disabledReason: null } };
      },
    });
    const panel = within(await screen.findByTestId('webhook-panel'));
    expect(panel.getByText('Disabled')).toBeInTheDocument();
    expect(panel.getByText(/The receiver answered 410 Gone\./)).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Re-enable' }));
    expect(await panel.findByText('Active')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/webhook/enable')).toHaveLength(1);
  });

  it('is not there for a Free user (the webhook field stays disabled)', async () => {
    const { fetchMock } = await openSettings({}, { isPremium: false });
    expect(screen.getByLabelText(/Webhook URL/)).toBeDisabled();
    expect(screen.queryByTestId('webhook-panel')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/webhook'))).toBe(false);
  });
});
