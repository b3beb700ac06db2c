import { expect, newIdentity, registerAndVerify, test } from './fixtures';

/**
 * A keyboard user's journeys, in a real browser (what jsdom cannot show: the skip link appearing, `inert`,
 * the address bar): the skip link is the first Tab stop and shows itself, it moves focus past the navbar
 * without changing the address, the password can be shown and hidden from the keyboard, and in the editor
 * the skip link asks nothing and the live preview takes no Tab stop.
 */

test('login by keyboard: skip link first and visible, then the show/hide password button', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome back', level: 1 })).toBeVisible();
  const skipLink = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skipLink).not.toBeInViewport();

  await page.keyboard.press('Tab');
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();

  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).toHaveURL(/\/auth$/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Login' })).toBeFocused();

  const password = page.getByLabel('Password', { exact: true });
  await password.fill('secret123');
  await page.keyboard.press('Tab');
  const toggle = page.getByRole('button', { name: 'Show password' });
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide password' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'password');
  await expect(password).toHaveValue('secret123');
});

test('editor by keyboard: the skip link asks nothing with unsaved changes, and the preview takes no Tab stop', async ({
  page,
  smtp,
  baseURL,
}) => {
  await registerAndVerify(page, newIdentity('kbd'), smtp, baseURL!);
  await page.goto('/editor/new?template=blank');
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  await page.getByLabel('URL Slug').fill('keyboard-only');

  // Not a navigation: no "Leave without saving?", no #main in the address.
  await page.getByRole('link', { name: 'Skip to main content' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).toHaveURL(/\/editor\/new\?template=blank$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Tab through the form to the preview: one stop for the preview's scroll box, none in the page it shows.
  const preview = page.getByRole('region', { name: 'Live preview of the page' });
  const stopsInPreviewPage: string[] = [];
  for (let stops = 0; stops < 150 && !(await preview.evaluate((box) => box === document.activeElement)); stops += 1) {
    await page.keyboard.press('Tab');
    const inPage = await page.evaluate(() => document.activeElement?.closest('[data-testid="live-preview-page"]') !== null);
    if (inPage) stopsInPreviewPage.push(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? ''));
  }
  await expect(preview).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="live-preview-page"]') !== null)).toBe(false);
  expect(stopsInPreviewPage).toEqual([]);
});
