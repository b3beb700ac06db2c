import { expect, newIdentity, registerAndVerify, test } from './fixtures';

/** A server without STRIPE_SECRET_KEY (the default): upgrading says so instead of failing somewhere later. */
test('the upgrade says payments are not configured, at checkout and in Settings', async ({ page, smtp, baseURL }) => {
  await registerAndVerify(page, newIdentity('nopay'), smtp, baseURL!);
  await page.getByRole('link', { name: 'Upgrade Now' }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=pro$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Payments are not configured on this server.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();

  await page.goto('/settings?tab=subscription');
  await expect(page.getByTestId('plan-status')).toHaveText('Free');
  await expect(page.getByText('Payments are not configured on this server.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveCount(0);
});
