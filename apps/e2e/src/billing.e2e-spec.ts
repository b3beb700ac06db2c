import type { Page } from '@playwright/test';
import { expect, newIdentity, registerAndVerify, snap, test, toast } from './fixtures';

/**
 * The upgrade journey on a gateway that takes payments on a local Stripe server (FakeStripe: Stripe's API
 * protocol for the real SDK, a hosted checkout page, signed webhooks to /api/webhooks/stripe): a Free creator
 * whose branding is locked upgrades from the dashboard, starts the 14-day trial without a card on the
 * checkout page, comes back Pro, removes the branding from the live page, sees the trial in Settings →
 * Subscription and cancels it, keeping Pro until the trial's end.
 */
test.use({ withStripe: true });

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const brandingSwitch = (page: Page) => page.getByRole('switch', { name: /^Show 'Made with Plink' badge/ });

test('a Free creator upgrades through Stripe Checkout with the trial, removes the branding, then cancels', async ({
  page,
  browser,
  smtp,
  baseURL,
  gateway,
}) => {
  test.setTimeout(180_000);
  const origin = baseURL!;
  const stripe = gateway.stripe!;
  const creator = newIdentity('pay');
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const slug = `trial-${tag}`;
  const title = `Trial Page ${tag}`;
  let trialEndsOn = '';
  /** The one subscription the checkout made, as the local Stripe server keeps it. */
  const subscriptionId = () => {
    const created = stripe.eventsOfType('customer.subscription.created');
    expect(created).toHaveLength(1);
    return String((created[0].data as { object: { id: string } }).object.id);
  };

  const publicPageBranding = async () => {
    const context = await browser.newContext({ baseURL: origin });
    try {
      const visitor = await context.newPage();
      await visitor.goto(`/${slug}`);
      await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
      return await visitor.getByText('Made with Plink').count();
    } finally {
      await context.close();
    }
  };

  await test.step('a Free creator makes a page; removing the branding needs Pro', async () => {
    await registerAndVerify(page, creator, smtp, origin);
    await expect(page.getByRole('heading', { name: 'Upgrade to Pro' })).toBeVisible();
    await page.getByRole('link', { name: 'Create Your First Plink' }).click();
    await page.getByRole('link', { name: 'Start blank' }).click();
    await expect(page.getByRole('heading', { name: 'Create Page' })).toBeVisible();
    await page.getByLabel('URL Slug').fill(slug);
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('File URL', { exact: true }).fill('https://files.example.com/guide.pdf');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await brandingSwitch(page).click();
    await expect(toast(page, 'Premium Feature')).toContainText('Removing branding requires a Pro subscription.');
    await expect(brandingSwitch(page)).toBeChecked();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Your page is live' }).getByRole('button', { name: 'Go to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await publicPageBranding()).toBe(1);
  });

  await test.step("the dashboard's Upgrade Now leads through /checkout to Stripe's checkout page", async () => {
    await page.getByRole('link', { name: 'Upgrade Now' }).click();
    await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(stripe.url)}/c/pay/`));
    await expect(page.getByRole('heading', { name: 'Plink test checkout' })).toBeVisible();
    await snap(page, '01-stripe-checkout');
    const [session] = stripe.requestsTo('POST', '/v1/checkout/sessions');
    expect(session.params).toMatchObject({
      mode: 'subscription',
      subscription_data: { trial_period_days: '14' },
      payment_method_collection: 'if_required',
      success_url: `${origin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
    });
  });

  await test.step("'Start trial' returns to /checkout/success: Welcome to Pro!", async () => {
    await page.getByRole('button', { name: 'Start trial' }).click();
    await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(origin)}/checkout/success\\?session_id=cs_`));
    await expect(page.getByRole('heading', { name: 'Welcome to Pro!' })).toBeVisible();
    // A trial: the screen says so, and the day it ends.
    await expect(page.getByText('Your free trial has started')).toBeVisible();
    await expect(page.getByText(/^Your trial ends on /)).toBeVisible();
    await snap(page, '02-welcome-to-pro');

    const subscription = stripe.subscription(subscriptionId());
    expect(subscription.status).toBe('trialing');
    trialEndsOn = DAY.format(new Date(Number(subscription.trial_end) * 1000));

    // Stripe's webhooks reached the gateway's endpoint, signed, and were taken; the creator is told by e-mail.
    await stripe.settled();
    const delivered = stripe.deliveries.filter((d) => d.eventType === 'checkout.session.completed');
    expect(delivered.map((d) => d.status)).toEqual([200]);
    const welcome = await smtp.waitFor((m) => m.to.includes(creator.email.toLowerCase()) && m.subject === 'Welcome to Plink Pro', 20_000);
    expect(welcome.text).toContain('Your free Pro trial has started.');

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Upgrade to Pro' })).toHaveCount(0);
  });

  await test.step('the editor: the branding switch now turns off, and the live page loses the badge', async () => {
    await page.getByRole('row').filter({ hasText: title }).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Page' })).toBeVisible();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await brandingSwitch(page).uncheck();
    await expect(brandingSwitch(page)).not.toBeChecked();
    await expect(toast(page, 'Premium Feature')).toHaveCount(0);
    await expect(page.getByTestId('live-preview').getByText('Made with Plink')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, 'Your page has been updated!')).toBeVisible();
    expect(await publicPageBranding()).toBe(0);
  });

  await test.step('Settings → Subscription shows the trial and its end', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Subscription' }).click();
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    await expect(page.getByTestId('plan-status')).toHaveText(`Pro — trial until ${trialEndsOn}`);
    await expect(page.getByRole('button', { name: 'Manage billing' })).toBeVisible();
    await snap(page, '03-settings-trial');
  });

  await test.step('Cancel → Confirm Cancellation: Pro until the trial ends, then it stops', async () => {
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`You keep Pro until ${trialEndsOn}`);
    await dialog.getByRole('button', { name: 'Confirm Cancellation' }).click();

    await expect(toast(page, 'Subscription cancelled')).toContainText(`Your Pro plan stays active until ${trialEndsOn}.`);
    await expect(page.getByTestId('plan-status')).toHaveText(`Pro — cancels ${trialEndsOn}`);
    await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
    expect(stripe.subscription(subscriptionId()).cancel_at_period_end).toBe(true);
    await snap(page, '04-settings-cancelled');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
