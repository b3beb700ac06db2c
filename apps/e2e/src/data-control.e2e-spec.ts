import type { Page } from '@playwright/test';
import { expect, newIdentity, openStats, registerAndVerify, snap, test, toast } from './fixtures';

/**
 * Data control as a creator and a visitor see it in a real browser: the creator names themselves and links
 * their own privacy policy, and the public page's consent line says so; a lead is deleted from the stats
 * screen; a deleted page leaves its address at once and the toast's Undo brings it back.
 */

const POLICY_URL = 'https://ann-studio.example/privacy';
const CONTROLLER = 'Ann Adams Studio';

async function signUp(visitor: Page, slug: string, email: string): Promise<void> {
  await visitor.goto(`/${slug}`);
  // A person reads the page before signing up (a form sent sooner than 2 s after the page is a script's).
  await visitor.waitForTimeout(2_500);
  await visitor.getByRole('textbox', { name: 'Email address' }).fill(email);
  await visitor.getByRole('checkbox', { name: `I agree to the privacy policy of ${CONTROLLER}` }).check();
  await visitor.getByRole('button', { name: 'Join' }).click();
  await expect(visitor.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
}

test('a creator links their own privacy policy, deletes a lead, deletes a page and undoes it', async ({ page, browser, smtp, baseURL }) => {
  test.setTimeout(180_000);
  const origin = baseURL!;
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const slug = `e2e-terms-${tag}`;
  const title = `Terms Guide ${tag}`;
  let pageId = 0;

  await test.step('the creator registers and has a page', async () => {
    await registerAndVerify(page, newIdentity('terms'), smtp, origin);
    const res = await page.request.post(`${origin}/api/pages`, { data: { slug, title, buttonText: 'Join' }, headers: { origin } });
    expect(res.status(), await res.text()).toBe(201);
    pageId = ((await res.json()) as { id: number }).id;
  });

  await test.step('editor Settings: their privacy policy URL and name, shown in the live preview', async () => {
    await page.goto(`/editor/${pageId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Your privacy policy URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Your privacy policy URL must start with http:// or https://')).toBeVisible();
    await page.getByLabel('Your privacy policy URL').fill(POLICY_URL);
    await page.getByLabel('Your name or business name').fill(CONTROLLER);
    const preview = page.getByTestId('live-preview');
    await expect(preview.getByText(`I agree to the privacy policy of ${CONTROLLER}`)).toBeVisible();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, 'Your page has been updated!')).toBeVisible();
    await snap(page, '01-editor-privacy-terms');
  });

  const visitors = await browser.newContext({ baseURL: origin });
  try {
    await test.step('the public page names the creator and links their policy; two visitors sign up', async () => {
      const visitor = await visitors.newPage();
      await visitor.goto(`/${slug}`);
      const link = visitor.getByRole('link', { name: `privacy policy of ${CONTROLLER}` });
      await expect(link).toHaveAttribute('href', POLICY_URL);
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      await expect(link).toHaveAttribute('target', '_blank');
      await snap(visitor, '02-public-page-terms');
      await signUp(visitor, slug, `keep.${tag}@example.com`);
      await signUp(visitor, slug, `forget.${tag}@example.com`);
    });

    await test.step('the creator deletes one lead from the stats screen; the counts follow', async () => {
      await openStats(page, pageId);
      const table = page.getByRole('table', { name: 'All leads' });
      await expect(table.getByText(`forget.${tag}@example.com`)).toBeVisible();
      await expect(page.getByText('2 leads.', { exact: true })).toBeVisible();
      await table.getByRole('button', { name: `Delete forget.${tag}@example.com` }).click();
      await page.getByRole('dialog', { name: 'Delete this lead?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(toast(page, 'Success')).toContainText('1 lead deleted');
      await expect(table.getByText(`forget.${tag}@example.com`)).toHaveCount(0);
      await expect(table.getByText(`keep.${tag}@example.com`)).toBeVisible();
      await expect(page.getByText('1 lead.', { exact: true })).toBeVisible();
      await expect(page.getByText('Conversions', { exact: true }).locator('xpath=..')).toContainText('1');
      const csv = await page.request.get(`${origin}/api/pages/${pageId}/export`);
      expect(await csv.text()).not.toContain(`forget.${tag}@example.com`);
      await snap(page, '03-lead-deleted');
    });

    await test.step('deleting the page takes it off its address at once; Undo brings it back', async () => {
      await page.goto('/dashboard');
      await page.getByRole('button', { name: `More actions for ${title}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this Plink?' });
      await expect(dialog).toContainText('you can restore it from Settings → Trash for 14 days');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      const moved = toast(page, 'Moved to Trash');
      await expect(moved).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);

      const visitor = await visitors.newPage();
      expect((await visitor.goto(`/${slug}`))?.status()).toBe(404);
      await snap(page, '04-moved-to-trash');

      await moved.getByRole('button', { name: 'Undo' }).click();
      await expect(toast(page, 'Page restored')).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible();
      expect((await visitor.goto(`/${slug}`))?.status()).toBe(200);
      await expect(visitor.getByRole('link', { name: `privacy policy of ${CONTROLLER}` })).toBeVisible();
    });

    await test.step('deleted again, it waits in Settings → Trash', async () => {
      await page.getByRole('button', { name: `More actions for ${title}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Are you sure you want to delete this Plink?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(toast(page, 'Moved to Trash')).toBeVisible();
      await page.goto('/settings');
      const trash = page.getByTestId('trash');
      await expect(trash.getByRole('group', { name: title })).toContainText(`/${slug}`);
      await snap(page, '05-settings-trash');
      await trash.getByRole('button', { name: 'Restore' }).click();
      await expect(toast(page, 'Page restored')).toBeVisible();
      await expect(trash.getByText('The Trash is empty.')).toBeVisible();
    });
  } finally {
    await visitors.close();
  }
});
