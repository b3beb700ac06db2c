import { expect, mailedLink, newIdentity, registerAndVerify, test, toast } from './fixtures';

/**
 * Settings → Account → Delete account in a real browser: the dialog asks for the password and the typed username,
 * the account is gone at once (the home page says so, signing in fails) and the creator's public page answers 404.
 */
test('a creator deletes the account: signed out with a message, sign-in fails and the public page is 404', async ({ page, smtp, baseURL }) => {
  const who = newIdentity('bye');
  await registerAndVerify(page, who, smtp, baseURL!);
  const slug = `bye-${Date.now().toString(36)}`;
  // The page through the API, as the signed-in browser (its cookies): the editor has its own journey.
  const created = await page.request.post('/api/pages', { data: { slug, title: 'Soon gone' } });
  expect(created.status()).toBe(201);
  expect((await page.request.get(`/${slug}`)).status()).toBe(200);

  await page.goto('/settings?tab=account');
  const card = page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: 'Delete account' }) });
  await card.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Password', { exact: true }).fill('not-my-password');
  await dialog.getByLabel(/Type your username/).fill(who.username);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Current password is incorrect')).toBeVisible();

  await dialog.getByLabel('Password', { exact: true }).fill(who.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(toast(page, 'Account deleted')).toContainText('Your account has been deleted.');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })).toBeVisible();

  const visit = await page.goto(`/${slug}`);
  expect(visit?.status()).toBe(404);

  await page.goto('/auth');
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Invalid email or password. Please try again.')).toBeVisible();

  await mailedLink(smtp, who.email, /account was deleted/, `${baseURL}/`);
});
