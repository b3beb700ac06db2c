import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, grantPro, newIdentity, registerAndVerify, snap, test, toast } from './fixtures';

/**
 * Webhooks as a Pro creator uses them in a real browser: sets a webhook URL in the editor's Settings tab, sends a
 * test event and sees it delivered in the Deliveries panel, redelivers it — and a real receiver gets both,
 * signed with the secret the panel shows, under one webhook-id.
 */
test('a Pro creator sets a webhook, sends a test event, sees it delivered and redelivers it', async ({ page, smtp, baseURL, gateway }) => {
  test.setTimeout(120_000);
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('caught it');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/catch`;

  try {
    const creator = newIdentity('hook');
    const slug = `hooked-${Date.now().toString(36)}`;
    await test.step('a Pro creator saves a page with a webhook URL', async () => {
      await registerAndVerify(page, creator, smtp, baseURL!);
      await grantPro(gateway.databaseUrl, creator.email);
      await page.goto('/editor/new?template=blank');
      await page.getByLabel(/URL Slug/).fill(slug);
      await page.getByRole('tab', { name: 'Settings' }).click();
      await expect(page.getByText('Save the page to get its signing secret')).toBeVisible();
      await page.getByLabel(/Webhook URL/).fill(hookUrl);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog', { name: 'Your page is live' }).getByRole('button', { name: 'Go to dashboard' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    const pages = (await (await page.request.get('/api/pages')).json()) as { id: number; slug: string }[];
    const pageId = pages.find((p) => p.slug === slug)!.id;
    let secret = '';
    await test.step('its Settings tab shows the webhook on, with its secret', async () => {
      await page.goto(`/editor/${pageId}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      const panel = page.getByTestId('webhook-panel');
      await expect(panel.getByText('Active')).toBeVisible();
      secret = (await panel.getByTestId('webhook-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await panel.getByRole('button', { name: 'Copy' }).click();
      await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
      await expect(panel.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 4_000 });
      await expect(panel.getByText('No deliveries yet.')).toBeVisible();
    });

    await test.step('Send test event: delivered, shown inline and in the Deliveries panel', async () => {
      const panel = page.getByTestId('webhook-panel');
      await panel.getByRole('button', { name: 'Send test event' }).click();
      await expect(panel.getByTestId('webhook-test-result')).toHaveText(/^Delivered: HTTP 200 in \d+ ms$/);
      await expect(panel.getByTestId('delivery-row')).toHaveCount(1);
      await expect(panel.getByTestId('delivery-row').getByText('delivered')).toBeVisible();
      expect(received).toHaveLength(1);
      const event = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>) as { test: boolean; type: string };
      expect(event).toMatchObject({ type: 'lead.created', test: true });
      await panel.getByTestId('delivery-row').getByRole('button', { name: /^1/ }).click();
      await expect(panel.getByText('caught it')).toBeVisible();
      await snap(page, 'webhook-delivered');
    });

    await test.step('Redeliver: the receiver gets the same message again, under the same webhook-id', async () => {
      const panel = page.getByTestId('webhook-panel');
      await panel.getByRole('button', { name: 'Redeliver' }).click();
      await expect(toast(page, 'Redelivery queued')).toBeVisible();
      await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
      expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
      expect(received[1].body).toBe(received[0].body);
      await expect(async () => {
        await panel.getByRole('button', { name: 'Refresh deliveries' }).click();
        await expect(panel.getByTestId('delivery-row').getByRole('button', { name: /^2/ })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(panel.getByTestId('delivery-row').getByText('delivered')).toBeVisible();
    });
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
