import { cspViolations, expect, test } from './fixtures';

/**
 * The API reference in a real browser: /api/docs draws every operation under the app's own
 * Content-Security-Policy (swagger-ui's files come from the gateway; no inline script, no other host), and
 * the sign-in screen's friendly addresses land on its tabs.
 */
test('the API reference draws under the app policy, and /signup opens the Register tab', async ({ page }) => {
  const violations = cspViolations(page);
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(request.url()));
  page.on('pageerror', (error) => failed.push(error.message));

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Plink API/ })).toBeVisible();
  await expect(page.locator('.opblock').first()).toBeVisible();
  expect(await page.locator('.opblock').count()).toBeGreaterThan(40);
  await page.locator('.opblock-summary', { hasText: '/api/register' }).first().click();
  await expect(page.getByText('Email already exists').first()).toBeAttached();
  expect(violations).toEqual([]);
  expect(failed).toEqual([]);

  await page.goto('/signup?template=photo-guide');
  await expect(page).toHaveURL(/\/auth\?tab=register&template=photo-guide$/);
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
