import type { Browser, ConsoleMessage } from '@playwright/test';
import { expect, registerAndVerify, newIdentity, snap, test } from './fixtures';

/**
 * The first impression as a visitor gets it: the home page is real HTML (its content without JavaScript),
 * the SPA takes it over without a hydration error, a phone gets a burger menu and a navbar that stays on
 * top and a page that does not move when its web font arrives, a signed-in user goes from / to the dashboard
 * without seeing the home page; and the public page's consent error is the page's own message under the
 * checkbox.
 */

const PHONE = { width: 390, height: 844 };
/** The phone Lighthouse's mobile audit emulates (a Moto G Power): there Inter fits the hero's title on one line. */
const LIGHTHOUSE_PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

async function consoleErrors(browser: Browser, origin: string, path: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL: origin, javaScriptEnabled });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors, open: () => page.goto(path) };
}

test('the home, terms and privacy pages show their content without JavaScript', async ({ browser, gateway }) => {
  const { context, page, open } = await consoleErrors(browser, gateway.origin, '/', false);
  try {
    await open();
    await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get Started Free' }).first()).toHaveAttribute('href', '/auth?tab=register');
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('the SPA takes the prerendered home page over without an error and keeps it interactive', async ({ browser, gateway }) => {
  const { context, page, errors, open } = await consoleErrors(browser, gateway.origin, '/');
  try {
    await open();
    await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
    // Hydrated: a client-side link works without a page load.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test('on a phone the home page has a burger menu, a sticky navbar and hero buttons of one width', async ({ browser, gateway }) => {
  const context = await browser.newContext({ baseURL: gateway.origin, viewport: PHONE });
  const page = await context.newPage();
  try {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Features' })).toBeHidden();
    const [getStarted, seeExamples] = [page.getByRole('link', { name: 'Get Started Free' }).first(), page.getByRole('link', { name: 'See Examples' })];
    const [a, b] = [await getStarted.boundingBox(), await seeExamples.boundingBox()];
    expect(a && b && Math.round(a.width)).toBe(b && Math.round(b.width));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Plink' });
    await expect(drawer).toBeVisible();
    await snap(page, 'home-phone-menu');
    await drawer.getByRole('link', { name: 'Pricing' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/#pricing$/);

    await page.mouse.wheel(0, 2500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const header = await page.locator('header').first().boundingBox();
    expect(header?.y).toBe(0);
  } finally {
    await context.close();
  }
});

test('on a phone the home page does not move when its font arrives late', async ({ browser, gateway }) => {
  const context = await browser.newContext({ baseURL: gateway.origin, ...LIGHTHOUSE_PHONE });
  // Inter is held back until the page has shown in the fallback font: on a slow phone it arrives last.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = () => {};
  const interRequested = new Promise<void>((resolve) => (requested = resolve));
  await context.route('**/fonts/inter-*', async (route) => {
    requested();
    await held;
    await route.continue();
  });
  // The page's layout shifts (what Lighthouse adds up as CLS), from the first paint on.
  await context.addInitScript(() => {
    const win = window as unknown as { layoutShift: number };
    win.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) win.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  const layoutShift = () => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
  const nextFrames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  try {
    // Not 'load': it waits for the held font.
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('heading', { name: 'Collect emails fast' })).toBeVisible();
    await interRequested;
    await nextFrames();
    expect(await page.evaluate(() => document.fonts.check('700 40px Inter'))).toBe(false);
    release();
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 40px Inter') && document.fonts.check('40px Inter'))).toBe(true);
    await nextFrames();
    // Lighthouse's "good" is 0.1; the home page's own aim is 0.02 (0.11 when the fallback was the system font,
    // wider than Inter: the title took two lines until Inter came).
    expect(await layoutShift()).toBeLessThanOrEqual(0.02);
  } finally {
    await context.close();
  }
});

test('a signed-in user opening / lands on the dashboard without the home page showing', async ({ page, smtp, gateway }) => {
  await registerAndVerify(page, newIdentity('home'), smtp, gateway.origin);
  // The request carries the session cookie: the gateway answers the bare shell, not the signed-out home page.
  const answer = await page.request.get('/');
  expect(await answer.text()).not.toContain('Collect emails fast');
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
