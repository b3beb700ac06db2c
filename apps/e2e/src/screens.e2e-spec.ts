import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, fillRegisterForm, mailedLink, newIdentity, test } from './fixtures';

/**
 * Every screen of the product, as a reviewer would walk through it, at two sizes: a 1440×900 desktop and a
 * 390×844 phone. On each screen and size:
 * - axe-core checks the page against WCAG 2.1 A/AA; a serious or critical violation fails the test (all of
 *   them are listed at the end, so one run shows every problem);
 * - the page must not scroll sideways (its content fits the window's width);
 * - a full-page screenshot goes to apps/e2e/test-results/screens/ (not committed), named by screen and size.
 */

const SCREENS_DIR = join(__dirname, '..', 'test-results', 'screens');
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface Finding {
  screen: string;
  size: string;
  problem: string;
}

test('every screen passes axe (no serious or critical violation), fits a 390 px phone, and is photographed at two sizes', async ({
  page,
  smtp,
  baseURL,
}) => {
  // About 20 screens at two sizes, each checked by axe (the template gallery, with a miniature per template, the largest).
  test.setTimeout(360_000);
  mkdirSync(SCREENS_DIR, { recursive: true });
  const origin = baseURL!;
  const findings: Finding[] = [];
  let shot = 0;

  /** Checks and photographs the screen now open, at both sizes; `ready` is visible once it has drawn. */
  async function review(screen: string, ready: (p: Page) => Locator, open?: (p: Page) => Promise<void>): Promise<void> {
    shot += 1;
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      // What the screen shows only after a click (a menu), opened again at each size (the layout may change).
      if (open) await open(page);
      await expect(ready(page)).toBeVisible();
      // No hover state left by the last click (it would be judged instead of the resting colours).
      if (!open) await page.mouse.move(0, 0);
      // Let transitions and late layout settle (fonts, images).
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(100);

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) findings.push({ screen, size: size.name, problem: `scrolls sideways by ${overflow} px` });

      // Only violations are reported back (passes and the rest would cost time and say nothing here).
      const result = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .options({ resultTypes: ['violations'] })
        .analyze();
      for (const violation of result.violations) {
        if (!BLOCKING_IMPACTS.has(violation.impact ?? '')) continue;
        const where = violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ')})` : ''}`)
          .join('; ');
        findings.push({ screen, size: size.name, problem: `${violation.impact} ${violation.id}: ${violation.help} — ${where}` });
      }

      const file = `${String(shot).padStart(2, '0')}-${screen}-${size.name}.png`;
      await page.screenshot({ path: join(SCREENS_DIR, file), fullPage: true, animations: 'disabled' });
    }
    await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  }

  const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name }).first();

  // --- signed out ---------------------------------------------------------------------------------------
  await page.goto('/');
  await review('home', heading('Collect emails fast'));

  await page.goto('/photo-guide');
  await review('public-page', heading('Free Photography Cheat Sheet'));
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
  await page.goto('/auth?tab=register');
  await review('auth-register', heading('Create an account'));

  // --- a new creator: verify prompt, then the app ----------------------------------------------------------
  const who = newIdentity('scr');
  await fillRegisterForm(page, who);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/verify-prompt$/);
  await review('verify-prompt', heading('Please verify your email'));
  // An unverified user is sent back to the prompt from any login route.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/verify-prompt$/);

  await page.goto(await mailedLink(smtp, who.email, /verify/i, `${origin}/verify-email?token=`));
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await review('dashboard-empty', (p) => p.getByText("You haven't created any plinks yet."));

  // "Create page": the template gallery; a card opens the editor filled with its template.
  await page.goto('/editor/new');
  await review('template-gallery', (p) => p.getByRole('link', { name: 'Cheat sheet' }));
  await page.getByRole('link', { name: 'Cheat sheet' }).click();
  await expect(page).toHaveURL(/\/editor\/new\?template=photo-guide$/);

  // The editor, started from a template (as "Use this template" links it), on each of its tabs.
  await page.goto('/editor/new?template=photo-guide');
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(page.getByLabel(/Title/).first()).toHaveValue('Free Photography Cheat Sheet');
  for (const tab of ['Content', 'Appearance', 'Settings', 'Thank You', 'Sharing']) {
    await page.getByRole('tab', { name: tab }).click();
    await review(`editor-${tab.toLowerCase().replace(/\s+/g, '-')}`, (p) => p.getByRole('tab', { name: tab, selected: true }));
  }
  await page.getByRole('tab', { name: 'Content' }).click();
  const slug = `shots-${Date.now().toString(36)}`;
  await page.getByLabel(/URL Slug/).fill(slug);
  await page.getByRole('button', { name: 'Save' }).click();
  const live = page.getByRole('dialog', { name: 'Your page is live' });
  await review('page-live', () => live.getByRole('img', { name: /^QR code of / }));
  await live.getByRole('button', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await review('dashboard', (p) => p.getByText('TOTAL PLINKS'));
  // The row's menu (Download Leads, Delete in red), open.
  await review(
    'dashboard-menu',
    (p) => p.getByRole('menuitem', { name: 'Delete' }),
    async (p) => {
      // Closed first: a resize swaps the table for cards (or back), and the menu of the old layout goes with it.
      await p.keyboard.press('Escape');
      await expect(p.getByRole('menu')).toHaveCount(0);
      await p.getByRole('button', { name: /More actions for/ }).first().click();
    },
  );
  await page.keyboard.press('Escape');

  const statsHref = await page.getByRole('link', { name: 'Stats', exact: true }).first().getAttribute('href');
  await page.goto(statsHref!);
  await review('stats', heading('Free Photography Cheat Sheet'));

  await page.goto('/settings');
  await review('settings', heading('Settings'));

  await page.goto('/checkout?plan=pro');
  await review('checkout', (p) => p.getByRole('heading').first());

  // The creator's own page, as its visitors see it.
  await page.goto(`/${slug}`);
  await review('creator-page', heading('Free Photography Cheat Sheet'));

  expect(findings, findings.map((f) => `${f.screen} (${f.size}): ${f.problem}`).join('\n')).toEqual([]);
});
