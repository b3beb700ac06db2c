import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { formatConversionRate } from '@plink/contracts';
import { cspViolations, expect, newIdentity, registerAndVerify, snap, test } from './fixtures';

/**
 * The pages journey as its people see it in a real browser: a creator builds a landing
 * page in the editor (live preview included) and finds it on the dashboard; a stranger signs up on it
 * with JavaScript (and gets the file by e-mail) and another without JavaScript; the creator then sees the
 * views, leads and conversion rate, the stats screen and the CSV export; a crawler's visit is no view.
 */

const FILE_URL = 'https://files.example.com/guide.pdf';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DESKTOP_BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** Views reach the database in steps (memory → Redis every 1 s → database every 2 s): allow a slow machine. */
const VIEWS_SETTLE_MS = 45_000;

/** Escapes a string for use inside a RegExp. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The dashboard's row of a page (found by its title). */
const pageRow = (page: Page, title: string) => page.getByRole('row').filter({ hasText: title });

/** A summary card's figure ('TOTAL LEADS' → its number as shown). */
function summaryCard(page: Page, label: string): Locator {
  return page.getByText(label, { exact: true }).locator('xpath=..');
}

/** The views a dashboard row shows ('2 views' → 2). */
async function shownViews(row: Locator): Promise<number> {
  const text = (await row.getByText(/^\d+ views?$/).textContent()) ?? '';
  return Number.parseInt(text, 10);
}

/** The dashboard after a full reload (its page list is cached by the SPA for 60 s). */
async function reloadDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

async function strangerContext(browser: Browser, origin: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  return browser.newContext({ baseURL: origin, javaScriptEnabled });
}

test('a creator builds a page, strangers sign up with and without JavaScript, the creator sees stats and exports leads', async ({
  page,
  browser,
  smtp,
  baseURL,
  playwright,
}) => {
  test.setTimeout(240_000);
  const origin = baseURL!;
  const host = new URL(origin).host;
  // The creator's screens (dashboard, editor, stats) under the app's policy.
  const appRefused = cspViolations(page);
  const creator = newIdentity('cre');
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const slug = `e2e-guide-${tag}`;
  const title = `The E2E Guide ${tag}`;
  const subtext = 'Everything you need to know, in one PDF.';
  const buttonText = 'Send me the guide';
  const thankYouHeadline = `Thanks, the guide is on its way ${tag}`;
  const thankYouSubtext = 'Look for an e-mail from Plink in a minute.';
  const withJs = `js.${tag}@example.com`;
  const withoutJs = `nojs.${tag}@example.com`;
  let pageId = 0;
  let viewsAfterVisits = 0;

  await test.step('the creator registers, verifies and sees the empty dashboard', async () => {
    await registerAndVerify(page, creator, smtp, origin);
    await expect(page.getByText("You haven't created any plinks yet.")).toBeVisible();
    await snap(page, '01-empty-dashboard');
    await page.getByRole('link', { name: 'Create Your First Plink' }).click();
    await expect(page).toHaveURL(/\/editor\/new$/);
  });

  await test.step('"Create page" starts at the template gallery: a category, then "Start blank"', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a template' })).toBeVisible();
    // Every card is a miniature of its page, drawn with its picture.
    const ebook = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Ebook download' }) });
    await expect(ebook.locator('img.plk-img')).toHaveJSProperty('complete', true);
    expect(await ebook.locator('img.plk-img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('radiogroup', { name: 'Category' }).getByText('Events').click();
    await expect(page.getByRole('radio', { name: 'Events' })).toBeChecked();
    await expect(page).toHaveURL(/\/editor\/new\?category=events$/);
    await expect(page.getByRole('link', { name: 'Webinar registration' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ebook download' })).toHaveCount(0);
    await snap(page, '01a-template-gallery');
    await page.getByRole('link', { name: 'Start blank' }).click();
    await expect(page).toHaveURL(/\/editor\/new\?template=blank$/);
    await expect(page.getByRole('heading', { name: 'Create Page' })).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('');
  });

  await test.step('the editor: content, thank-you texts and the live preview', async () => {
    const preview = page.getByTestId('live-preview');
    await page.getByLabel('URL Slug').fill(slug);
    await expect(page.getByText(`Your page's address: ${host}/${slug}`)).toBeVisible();
    await page.getByLabel('Title', { exact: true }).fill(title);
    const richText = page.getByRole('textbox', { name: 'Subtext' });
    await richText.click();
    await page.keyboard.type(subtext);
    await page.getByLabel('Button Text', { exact: true }).fill(buttonText);
    await page.getByLabel('File URL', { exact: true }).fill(FILE_URL);

    await expect(preview.getByRole('heading', { name: title })).toBeVisible();
    await expect(preview.getByText(subtext)).toBeVisible();
    await expect(preview.getByRole('button', { name: buttonText })).toBeVisible();
    await snap(page, '02-editor-content');

    const thankYouTab = page.getByRole('tab', { name: 'Thank You' });
    await thankYouTab.click();
    await expect(thankYouTab).toHaveAttribute('aria-selected', 'true');
    await page.getByLabel('Thank You Headline', { exact: true }).fill(thankYouHeadline);
    await page.getByLabel('Thank You Subtext', { exact: true }).fill(thankYouSubtext);
    await expect(preview.getByRole('heading', { name: thankYouHeadline })).toBeVisible();
    await expect(preview.getByText(thankYouSubtext)).toBeVisible();
    await expect(preview.getByRole('heading', { name: title })).toHaveCount(0);
    await snap(page, '03-editor-thank-you');
  });

  await test.step('save → "Your page is live": the link, its QR code and the sharing card', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const live = page.getByRole('dialog', { name: 'Your page is live' });
    await expect(live.getByRole('textbox', { name: "Your page's link" })).toHaveValue(`${origin}/${slug}`);
    await expect(live.getByRole('img', { name: `QR code of ${origin}/${slug}` })).toBeVisible();
    await expect(live.getByTestId('social-card-preview')).toContainText(title);
    const download = page.waitForEvent('download');
    await live.getByRole('button', { name: 'Download PNG' }).click();
    expect((await download).suggestedFilename()).toBe(`${slug}-qr.png`);
    await snap(page, '03a-page-live');
  });

  await test.step('Go to dashboard → it lists the page with its URL and 0%', async () => {
    await page.getByRole('dialog', { name: 'Your page is live' }).getByRole('button', { name: 'Go to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const row = pageRow(page, title);
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: `${host}/${slug}`, exact: true })).toHaveAttribute('href', `/${slug}`);
    await expect(row.getByText('0 views', { exact: true })).toBeVisible();
    await expect(row.getByText('0 conversions', { exact: true })).toBeVisible();
    await expect(row.getByText('0%', { exact: true })).toBeVisible();
    await expect(summaryCard(page, 'TOTAL PLINKS')).toHaveText(/TOTAL PLINKS\s*1$/);
    const statsHref = await row.getByRole('link', { name: 'Stats', exact: true }).getAttribute('href');
    pageId = Number(/^\/stats\/(\d+)$/.exec(statsHref ?? '')?.[1]);
    expect(pageId).toBeGreaterThan(0);
    await snap(page, '04-dashboard-with-page');
  });

  await test.step('a stranger signs up with JavaScript and receives the file by e-mail', async () => {
    const context = await strangerContext(browser, origin, true);
    try {
      const visitor = await context.newPage();
      const refused = cspViolations(visitor);
      await visitor.goto(`/${slug}`);
      await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
      await expect(visitor.getByText(subtext)).toBeVisible();
      const email = visitor.getByRole('textbox', { name: 'Email address' });
      const consent = visitor.getByRole('checkbox', { name: 'I agree to the privacy policy' });
      await expect(email).toBeVisible();
      await expect(consent).toBeVisible();
      await snap(visitor, '05-public-page');
      // A person reads the page before signing up: a form sent sooner than 2 s after the page is a script's.
      await visitor.waitForTimeout(3_000);

      // Hold the submission a moment so that the busy state can be seen (locally it is instant).
      await visitor.route('**/api/page/*/submit', async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      });
      await email.fill(withJs);
      await consent.check();
      await visitor.getByRole('button', { name: buttonText }).click();
      await expect(visitor.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
      await expect(visitor.getByRole('heading', { name: thankYouHeadline })).toBeVisible();
      await expect(visitor.getByText(thankYouSubtext)).toBeVisible();
      await expect(visitor).toHaveURL(`${origin}/${slug}`);
      await snap(visitor, '06-thank-you-with-js');
      // The landing page's own strict policy (its inline scripts by hash, its fonts, its form) blocked nothing.
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }

    const mail = await smtp.waitFor((m) => m.to.includes(withJs) && m.subject === `Your download: ${title}`, 30_000);
    expect(mail.text).toContain(FILE_URL);
    expect(mail.html).toContain(`href="${FILE_URL}"`);
  });

  await test.step('a stranger signs up without JavaScript', async () => {
    const context = await strangerContext(browser, origin, false);
    try {
      const visitor = await context.newPage();
      await visitor.goto(`/${slug}`);
      await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
      await visitor.waitForTimeout(3_000);
      await visitor.getByRole('textbox', { name: 'Email address' }).fill(withoutJs);
      await visitor.getByRole('checkbox', { name: 'I agree to the privacy policy' }).check();
      await visitor.getByRole('button', { name: buttonText }).click();
      await expect(visitor).toHaveURL(`${origin}/${slug}?submitted=1`);
      await expect(visitor.getByRole('heading', { name: thankYouHeadline })).toBeVisible();
      await expect(visitor.getByText(thankYouSubtext)).toBeVisible();
      await snap(visitor, '07-thank-you-without-js');
    } finally {
      await context.close();
    }
    const mail = await smtp.waitFor((m) => m.to.includes(withoutJs) && m.subject === `Your download: ${title}`, 30_000);
    expect(mail.text).toContain(FILE_URL);
  });

  await test.step('the dashboard shows the views, 2 leads and the conversion rate', async () => {
    const row = pageRow(page, title);
    // Poll by full reloads until both visits and both leads are in.
    await expect(async () => {
      await reloadDashboard(page);
      await expect(row.getByText('2 conversions', { exact: true })).toBeVisible({ timeout: 2_000 });
      expect(await shownViews(row)).toBeGreaterThanOrEqual(2);
    }).toPass({ timeout: VIEWS_SETTLE_MS, intervals: [1_000, 2_000, 3_000] });

    viewsAfterVisits = await shownViews(row);
    await expect(row.getByText(formatConversionRate(viewsAfterVisits, 2), { exact: true })).toBeVisible();
    await expect(summaryCard(page, 'TOTAL VIEWS')).toHaveText(new RegExp(`TOTAL VIEWS\\s*${viewsAfterVisits}$`));
    await expect(summaryCard(page, 'TOTAL LEADS')).toHaveText(/TOTAL LEADS\s*2$/);
    await snap(page, '08-dashboard-with-leads');
  });

  await test.step('the stats screen lists both leads', async () => {
    await pageRow(page, title).getByRole('link', { name: 'Stats', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/stats/${pageId}$`));
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    const leads = page.getByRole('table', { name: 'Recent leads' });
    await expect(leads.getByRole('cell', { name: withJs, exact: true })).toBeVisible();
    await expect(leads.getByRole('cell', { name: withoutJs, exact: true })).toBeVisible();
    await expect(page.getByText('Showing 2 of 2 leads.', { exact: true })).toBeVisible();
    // Both visitors were people: the bot shield refused nothing.
    await expect(page.getByRole('heading', { name: 'Blocked: 0' })).toBeVisible();
    // The all-time figure's card (the same rate may stand in the period's device and source tables too).
    await expect(page.getByText('Conversion rate', { exact: true }).locator('xpath=..')).toHaveText(
      new RegExp(`${literal(formatConversionRate(viewsAfterVisits, 2))}$`),
    );
    await snap(page, '09-stats');
  });

  await test.step('the CSV export carries both leads', async () => {
    const res = await page.request.get(`/api/pages/${pageId}/export`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/csv/);
    expect(res.headers()['content-disposition']).toMatch(/^attachment; filename="leads-[a-z0-9-]+\.csv"$/);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('email,created_at,consent_at,page_slug,status,confirmed_at,consent_version,signup_ip,source,referrer,ref,source_param,utm_source,utm_medium,utm_campaign,device');
    expect(lines).toHaveLength(3);
    for (const address of [withJs, withoutJs]) {
      const line = lines.find((l) => l.startsWith(`${address},`));
      expect(line, `a CSV row for ${address}`).toBeDefined();
      // Confirmed (no double opt-in, so no confirmation time), the consent text's SHA-256 and the browser's
      // address (the install keeps full evidence by default).
      expect(line).toMatch(new RegExp(`^${literal(address)},\\d{4}-\\d\\d-\\d\\dT[^,]+Z,\\d{4}-\\d\\d-\\d\\dT[^,]+Z,${literal(slug)},confirmed,,[0-9a-f]{64},[0-9a-f.:]+(,[^,]*){7},(desktop|phone|tablet)$`));
    }
  });

  await test.step('a crawler opening the page adds no view', async () => {
    const anonymous = await playwright.request.newContext({ baseURL: origin });
    try {
      const crawled = await anonymous.get(`/${slug}`, { headers: { 'user-agent': GOOGLEBOT } });
      expect(crawled.status()).toBe(200);
      expect(await crawled.text()).toContain(title);
      // Then one person's visit: views are flushed in the order they were counted, so once this one
      // shows, a counted crawler visit would show too.
      const visited = await anonymous.get(`/${slug}`, { headers: { 'user-agent': DESKTOP_BROWSER } });
      expect(visited.status()).toBe(200);
    } finally {
      await anonymous.dispose();
    }

    const row = pageRow(page, title);
    await expect(async () => {
      await reloadDashboard(page);
      expect(await shownViews(row)).toBeGreaterThanOrEqual(viewsAfterVisits + 1);
    }).toPass({ timeout: VIEWS_SETTLE_MS, intervals: [1_000, 2_000, 3_000] });
    expect(await shownViews(row)).toBe(viewsAfterVisits + 1);
    await expect(row.getByText(formatConversionRate(viewsAfterVisits + 1, 2), { exact: true })).toBeVisible();
    await snap(page, '10-dashboard-after-crawler');
  });

  // The app's policy (scripts from its own files only, no framing) blocked nothing the creator's screens use.
  expect(appRefused).toEqual([]);
});
