import type { Page } from '@playwright/test';
import { expect, fillRegisterForm, mailedLink, newIdentity, snap, test, toast } from './fixtures';

/**
 * The identity journey as a visitor sees it in a real browser: register, verify by the e-mailed
 * link, log out and in, reset a forgotten password by e-mail, change the password in Settings.
 * The gateway runs the API, the built SPA and the e-mail worker; mail goes to an SMTP catcher.
 */

const INVALID_CREDENTIALS = 'Invalid email or password. Please try again.';

/** Escapes a string for use inside a RegExp. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

async function logOutThroughNavbar(page: Page, username: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: username }).click();
  await expect(page.getByText('My Account')).toBeVisible();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
}

test('a visitor registers, verifies the e-mail, logs in and out, resets and changes the password', async ({
  page,
  smtp,
  baseURL,
}) => {
  const who = newIdentity('ana');
  const resetPassword = 'second-secret-2';
  const settingsPassword = 'third-secret-3';

  await test.step('home page → Get Started Free → registration tab', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })).toBeVisible();
    await snap(page, '01-home');
    const hero = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Collect emails fast' }) });
    await expect(hero.getByText('No credit card required')).toBeVisible();
    await hero.getByRole('link', { name: 'Get Started Free' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('register → verify prompt with the address', async () => {
    await fillRegisterForm(page, who);
    await snap(page, '02-register-filled');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/verify-prompt$/);
    await expect(page.getByRole('heading', { name: 'Please verify your email' })).toBeVisible();
    await expect(page.getByText(who.email, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend verification email' })).toBeEnabled();
    await snap(page, '03-verify-prompt');
  });

  await test.step('the e-mailed link verifies the address and leads to the dashboard', async () => {
    const link = await mailedLink(smtp, who.email, /verify/i, `${baseURL}/verify-email?token=`);
    await page.goto(link);
    const complete = toast(page, 'Verification complete');
    await expect(complete).toBeVisible();
    const shownAt = Date.now();
    await snap(page, '04-verification-complete');

    await expect(page).toHaveURL(/\/dashboard/);
    // The dashboard follows 1.5 s after the outcome (the bound allows for polling on our side).
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1_000);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const thanks = toast(page, 'Thanks for verifying your email');
    await expect(thanks).toBeVisible();
    await expect(thanks).toContainText(`${who.email} has been verified successfully.`);
    // emailVerified and email are removed from the address bar.
    await expect(page).toHaveURL(`${baseURL}/dashboard`);
    await snap(page, '05-dashboard-verified');
  });

  await test.step('log out through the account menu', async () => {
    await logOutThroughNavbar(page, who.username);
    await snap(page, '06-logged-out');
  });

  await test.step('log in → dashboard', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await logInThroughForm(page, who.email, who.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(toast(page, 'Login successful')).toContainText(`Welcome back, ${who.username}!`);
    await snap(page, '07-logged-in');
  });

  await test.step('log out, then ask for a password reset', async () => {
    await logOutThroughNavbar(page, who.username);
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
    await expect(page.getByText("If an account exists with that email, we've sent instructions to reset your password.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Login' })).toBeVisible();
    await snap(page, '08-check-your-email');
  });

  await test.step('the e-mailed reset link sets a new password', async () => {
    const link = await mailedLink(smtp, who.email, /reset/i, `${baseURL}/reset-password?token=`);
    // Hold the token check a moment, so that its loading state can be seen (locally it is instant).
    await page.route('**/api/verify-reset-token/**', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Verifying your reset link...' })).toBeVisible();
    await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
    await page.unroute('**/api/verify-reset-token/**');
    await page.getByLabel('New Password', { exact: true }).fill(resetPassword);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(resetPassword);
    await snap(page, '09-reset-form');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('heading', { name: 'Password Reset Complete' })).toBeVisible();
    await snap(page, '10-reset-complete');
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  await test.step('the old password fails, the new one logs in', async () => {
    await logInThroughForm(page, who.email, who.password);
    await expect(toast(page, 'Login failed')).toContainText(INVALID_CREDENTIALS);
    await expect(page).toHaveURL(/\/auth$/);
    await snap(page, '11-old-password-rejected');

    await page.getByLabel('Password', { exact: true }).fill(resetPassword);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  await test.step('Settings → Account: change the password', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: who.username }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    const account = page.getByRole('tab', { name: 'Account' });
    await account.click();
    await expect(account).toHaveAttribute('aria-selected', 'true');
    // The password card (the e-mail card above it asks for the current password too).
    const passwordCard = page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: 'Change password' }) });
    await passwordCard.getByLabel('Current Password', { exact: true }).fill(resetPassword);
    await passwordCard.getByLabel('New Password', { exact: true }).fill(settingsPassword);
    await passwordCard.getByLabel('Confirm New Password', { exact: true }).fill(settingsPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(toast(page, 'Password updated')).toBeVisible();
    // The form is cleared after a success.
    await expect(passwordCard.getByLabel('Current Password', { exact: true })).toHaveValue('');
    await snap(page, '12-password-updated');
  });

  await test.step('log out; the newest password logs in', async () => {
    await logOutThroughNavbar(page, who.username);
    await page.goto('/auth');
    await logInThroughForm(page, who.email, resetPassword);
    await expect(toast(page, 'Login failed')).toContainText(INVALID_CREDENTIALS);
    await page.getByLabel('Password', { exact: true }).fill(settingsPassword);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText(new RegExp(`Welcome, ${literal(who.username)}\\.`))).toBeVisible();
    await snap(page, '13-final-dashboard');
  });
});

test('the auth screens explain wrong input, and login routes need a login', async ({ page }) => {
  await test.step('an anonymous visit to /dashboard lands on /auth', async () => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  });

  await test.step('login validation: e-mail format and password length, no request sent', async () => {
    let loginCalls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/login')) loginCalls += 1;
    });
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Please enter a valid email', { exact: true })).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters', { exact: true })).toBeVisible();
    await snap(page, '01-login-validation');
    expect(loginCalls).toBe(0);
  });

  await test.step('wrong credentials', async () => {
    await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(toast(page, 'Login failed')).toContainText(INVALID_CREDENTIALS);
    await expect(page).toHaveURL(/\/auth$/);
    await snap(page, '02-wrong-credentials');
  });

  await test.step('registration: a confirmation that does not match', async () => {
    await page.getByRole('tab', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await page.getByLabel('Username', { exact: true }).fill('bea_mismatch');
    await page.getByLabel('Email', { exact: true }).fill('bea@example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm Password', { exact: true }).fill('secret124');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText("Passwords don't match", { exact: true })).toBeVisible();
    await expect(page.getByLabel('Confirm Password', { exact: true })).toHaveAccessibleDescription("Passwords don't match");
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    await snap(page, '03-register-mismatch');
  });

  await test.step('an unverified account is asked to verify before logging in', async () => {
    const who = newIdentity('cy');
    await fillRegisterForm(page, who);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Please verify your email' })).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/auth');
    await logInThroughForm(page, who.email, who.password);
    await expect(toast(page, 'Email verification required')).toContainText('Please verify your email before logging in.');
    await snap(page, '04-unverified-login');
  });
});
