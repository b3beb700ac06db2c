import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, fillRegisterForm, mailedLink, newIdentity, test, toast } from './fixtures';
import { ScreenReview } from './screen-review';

/**
 * Every screen of the product, as a reviewer would walk through it, at a 1366×900 laptop and a 390×844
 * phone (see ScreenReview: axe, no sideways scrolling, nothing cut off, a screenshot of each): signed out,
 * then one creator as Free, as Pro (through the checkout of the local Stripe server) and as downgraded
 * (Stripe ends the subscription: the pages beyond the Free plan's one are paused). The creator has a long
 * e-mail address and user name, and pages with long titles, as real ones do. Every finding is listed at the end.
 */
test.use({ withStripe: true });

/** 64 characters: a title as long as real ones get. */
const LONG_TITLE = 'The Complete Field Guide to Landscape Photography at Golden Hour';
const EDITOR_TABS = ['Content', 'Appearance', 'Settings', 'Thank You', 'Delivery e-mail', 'Sharing'];
const SCREENS_DIR = join(__dirname, '..', 'test-results', 'screens');

const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name }).first();
const dialog = (name: string) => (p: Page) => p.getByRole('dialog', { name });
const selectedTab = (name: string) => (p: Page) => p.getByRole('tab', { name, selected: true });
const tabScreen = (prefix: string, tab: string) => `${prefix}-${tab.toLowerCase().replace(/[^a-z]+/g, '-')}`;

test('every screen, signed out and as a Free, Pro and downgraded creator, passes axe, fits a phone and cuts nothing off', async ({
  page,
  smtp,
  baseURL,
  gateway,
}) => {
  // About 45 screens at two sizes: some 3 minutes on 2 cores, twice that while other work shares them.
  test.setTimeout(600_000);
  const origin = baseURL!;
  const stripe = gateway.stripe!;
  const screens = new ScreenReview(page, SCREENS_DIR);
  const review = screens.review.bind(screens);

  // The Pro creator's webhook goes to this receiver, so that its delivery log has a delivered row.
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/plink-leads`;

  const base = newIdentity('scr');
  const who = {
    ...base,
    // 30 characters, the longest a user name may be.
    username: `${base.username}_with_a_long_name`.slice(0, 30),
    // About 70 characters.
    email: base.email.replace('@', '.subscriber-with-a-long-mailbox-name@mail.'),
  };
  expect(who.email.length).toBeGreaterThanOrEqual(60);
  const tag = Date.now().toString(36);
  const slugs = [`first-${tag}`, `second-${tag}`, `third-${tag}`];

  try {
    await test.step('signed out', async () => {
      await page.goto('/');
      await review('home', heading('Collect emails fast'));

      await page.goto('/photo-guide');
      await review('public-page', heading('Free Photography Cheat Sheet'));
      await page.waitForTimeout(3_000);
      await page.getByLabel(/email/i).first().fill('visitor@example.com');
      const consent = page.getByRole('checkbox');
      if (await consent.count()) await consent.check();
      await page.getByRole('button', { name: 'Send Me the Guide' }).click();
      await review('public-page-thank-you', heading('Your cheat sheet is on its way!'));
      await expect(page.getByText('This is an example page made by Plink')).toBeVisible();

      await page.goto('/terms');
      await review('terms', heading('Terms of Service'));
      await page.goto('/privacy');
      await review('privacy', heading('Privacy Policy'));
      await page.goto('/no/such/page');
      await review('not-found', heading('404 Page Not Found'));

      await page.goto('/auth');
      await review('auth-login', heading('Welcome back'));
      await page.goto('/forgot-password');
      await review('forgot-password', heading('Forgot your password?'));
      await page.goto('/reset-password');
      await review('reset-password-invalid', heading('Invalid or Expired Link'));
      await page.goto('/auth?tab=register');
      await review('auth-register', heading('Create an account'));
    });

    await test.step('a Free creator: verify prompt, empty dashboard, editor, first page, stats, settings', async () => {
      await fillRegisterForm(page, who);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page).toHaveURL(/\/verify-prompt$/);
      await review('verify-prompt', heading('Please verify your email'));

      await page.goto(await mailedLink(smtp, who.email, /verify/i, `${origin}/verify-email?token=`));
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
      await review('free-dashboard-empty', (p) => p.getByText("You haven't created any plinks yet."));

      // "Create page": the template gallery; a card opens the editor filled with its template.
      await page.goto('/editor/new');
      await review('template-gallery', (p) => p.getByRole('link', { name: 'Cheat sheet' }));
      await page.getByRole('link', { name: 'Cheat sheet' }).click();
      await expect(page).toHaveURL(/\/editor\/new\?template=photo-guide$/);

      // The editor, started from a template (as "Use this template" links it) with a long title, on each of its tabs.
      await page.goto('/editor/new?template=photo-guide');
      await expect(page.getByLabel(/Title/).first()).toHaveValue('Free Photography Cheat Sheet');
      await page.getByLabel('Title', { exact: true }).fill(LONG_TITLE);
      await page.getByLabel(/URL Slug/).fill(slugs[0]);
      for (const tab of EDITOR_TABS) {
        await page.getByRole('tab', { name: tab }).click();
        await review(tabScreen('free-editor', tab), selectedTab(tab));
      }
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const live = page.getByRole('dialog', { name: 'Your page is live' });
      await review('page-live', () => live.getByRole('img', { name: /^QR code of / }));
      await live.getByRole('button', { name: 'Go to dashboard' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      await review('free-dashboard', (p) => p.getByText('TOTAL PLINKS'));
      const openRowMenu = async (p: Page) => {
        // Closed first: a resize swaps the table for cards (or back), and the menu of the old layout goes with it.
        await p.keyboard.press('Escape');
        await expect(p.getByRole('menu')).toHaveCount(0);
        await p.getByRole('button', { name: /More actions for/ }).first().click();
      };
      await review('free-dashboard-menu', (p) => p.getByRole('menuitem', { name: 'Delete' }), openRowMenu);
      await openRowMenu(page);
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await review('delete-dialog', dialog('Are you sure you want to delete this Plink?'));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('link', { name: 'Create New' }).click();
      await review('page-limit-dialog', dialog('Page Limit Reached'));
      await page.getByRole('button', { name: 'Back to Dashboard' }).click();

      // The creator's own page, as its visitors see it; a visitor with a long address signs up.
      await page.goto(`/${slugs[0]}`);
      await review('creator-page', heading(LONG_TITLE));
      // A person reads the page before signing up (a form sent sooner than 2 s after the page is a script's).
      await page.waitForTimeout(3_000);
      await page.getByLabel(/email/i).first().fill(`reader.${tag}.with-a-rather-long-address@subscribers.example.org`);
      const consent = page.getByRole('checkbox');
      if (await consent.count()) await consent.check();
      await page.getByRole('button', { name: 'Send Me the Guide' }).click();
      await review('creator-page-thank-you', heading('Your cheat sheet is on its way!'));

      await page.goto('/dashboard');
      const statsHref = await page.getByRole('link', { name: 'Stats', exact: true }).first().getAttribute('href');
      await page.goto(statsHref!);
      // Both lead tables (the newest leads, and all leads with their sources) have loaded before the review.
      await expect(page.getByRole('table', { name: 'Recent leads' }).getByRole('cell', { name: /^reader\./ })).toBeVisible();
      await expect(page.getByRole('table', { name: 'All leads' }).getByRole('cell', { name: /^reader\./ })).toBeVisible();
      await review('stats', heading(LONG_TITLE));
      // The lead's consent record, as its creator would show it (a long address, a SHA-256, a user agent).
      await page.getByRole('button', { name: /^Consent record of reader\./ }).click();
      await expect(page.getByRole('dialog', { name: 'Consent record' }).getByText('Signed up', { exact: true })).toBeVisible();
      await review('stats-consent-record', dialog('Consent record'));
      await page.keyboard.press('Escape');

      await page.goto('/settings');
      await review('free-settings-account', heading('Settings'));
      await page.goto('/settings?tab=subscription');
      await review('free-settings-subscription', (p) => p.getByRole('link', { name: 'Upgrade to Pro' }).first());
    });

    let subscriptionId = '';
    let webhookPageId = 0;
    await test.step('a Pro creator (Stripe checkout): welcome, more pages, the webhook and its deliveries, subscription', async () => {
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'Upgrade Now' }).click();
      await page.getByRole('button', { name: 'Start trial' }).click();
      await review('checkout-success', heading('Welcome to Pro!'));
      const created = stripe
        .eventsOfType('customer.subscription.created')
        .map((event) => (event.data as { object: { id: string; customer: string } }).object)
        .find((subscription) => stripe.customer(subscription.customer).email === who.email.toLowerCase());
      subscriptionId = created!.id;

      // A second page, with a webhook (its panel shows once the page is saved), and a third by the API.
      await page.goto('/editor/new?template=blank');
      await expect(page.getByRole('heading', { name: 'Create Page' })).toBeVisible();
      await page.getByLabel(/URL Slug/).fill(slugs[1]);
      await page.getByLabel('Title', { exact: true }).fill(`${LONG_TITLE}, Part Two`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByLabel(/Webhook URL/).fill(hookUrl);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('dialog', { name: 'Your page is live' }).getByRole('button', { name: 'Go to dashboard' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      const third = await page.evaluate(async (body) => {
        const res = await fetch('/api/pages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return res.status;
      }, { slug: slugs[2], title: `${LONG_TITLE}, Part Three` });
      expect(third).toBe(201);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Upgrade to Pro' })).toHaveCount(0);
      await review('pro-dashboard', (p) => p.getByText(`${LONG_TITLE}, Part Three`).first());

      const pages = (await (await page.request.get('/api/pages')).json()) as { id: number; slug: string }[];
      webhookPageId = pages.find((p) => p.slug === slugs[1])!.id;
      await page.goto(`/editor/${webhookPageId}`);
      await expect(page.getByRole('heading', { name: 'Edit Page' })).toBeVisible();
      for (const tab of EDITOR_TABS) {
        await page.getByRole('tab', { name: tab }).click();
        if (tab === 'Settings') {
          // The webhook panel with a delivered test event, its attempts open.
          const panel = page.getByTestId('webhook-panel');
          await panel.getByRole('button', { name: 'Send test event' }).click();
          await expect(panel.getByTestId('webhook-test-result')).toHaveText(/^Delivered: HTTP 200/);
          await panel.getByTestId('delivery-row').getByRole('button', { name: /^1/ }).click();
          await expect(panel.getByText('webhook-id', { exact: false })).toBeVisible();
          await page.getByLabel('Custom Code Snippet').fill('<script>console.log("tracking")</script>');
          await page.getByLabel('Google Analytics ID').fill('G-ABC1234567');
        }
        await review(tabScreen('pro-editor', tab), selectedTab(tab));
      }
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(toast(page, 'Your page has been updated!')).toBeVisible();

      await page.goto('/settings?tab=subscription');
      await review('pro-settings-subscription', (p) => p.getByRole('button', { name: 'Cancel Subscription' }));
      await page.getByRole('button', { name: 'Cancel Subscription' }).click();
      await review('cancel-subscription-dialog', dialog('Cancel your subscription?'));
      await page.getByRole('button', { name: 'Keep Subscription' }).click();
    });

    await test.step('a downgraded creator: Stripe ends Pro, the pages beyond the first are paused', async () => {
      await stripe.cancelNow(subscriptionId);
      await stripe.settled();
      const paused = async () => ((await (await page.request.get('/api/pages')).json()) as { paused: boolean }[]).filter((p) => p.paused).length;
      await expect.poll(paused, { timeout: 30_000 }).toBe(2);
      await page.goto('/dashboard');
      await review('downgraded-dashboard', (p) => p.getByRole('button', { name: 'Keep this page live' }).first());

      await page.goto(`/editor/${webhookPageId}`);
      await expect(page.getByRole('heading', { name: 'Edit Page' })).toBeVisible();
      await review('downgraded-editor', selectedTab('Content'));
      await page.getByRole('tab', { name: 'Settings' }).click();
      await review('downgraded-editor-settings', selectedTab('Settings'));

      await page.goto('/settings?tab=subscription');
      await review('downgraded-settings-subscription', (p) => p.getByRole('link', { name: 'Upgrade to Pro' }).first());

      // A paused page, as its visitors see it (the server's own page).
      await page.goto(`/${slugs[1]}`);
      await review('paused-page', heading('This page is paused'));
    });
  } finally {
    // What was found before a step failed, too.
    await test.info().attach('screen-findings.txt', { body: screens.list().join('\n') || '(none)', contentType: 'text/plain' });
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }

  const findings = screens.list();
  expect(findings, `${findings.length} findings:\n${findings.join('\n')}`).toEqual([]);
});
