import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { embedSnippets } from '@plink/contracts';
import { expect, grantPro, newIdentity, registerAndVerify, test } from './fixtures';

/**
 * The form on another site, as a creator pastes it and a visitor meets it: a host site of its own (127.0.0.2, another
 * port, so another origin and another site than Plink's) carries the inline tag, a popup, a slide-in and the plain
 * HTML form; its own CSS tries to break them. Each subscribes an address, on a page without and with double opt-in;
 * the plain form without JavaScript always asks to confirm by e-mail. Landing pages have a host of their own here
 * (PUBLIC_ORIGIN `localhost`), as recommended in production, so the embed's calls cross the host split too.
 */
test.use({ publicHost: 'localhost' });

/** What a host site's own stylesheet might do to everything on it. */
const HOSTILE_CSS = '* { all: unset } form { display: none } input, button { font-size: 40px !important; color: red }';

interface HostSite {
  origin: string;
  close: () => Promise<void>;
}

/** A tiny site on 127.0.0.2 whose pages are `/?body=…&css=1` (the snippet to paste, and the hostile CSS or not). */
async function startHostSite(): Promise<HostSite> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    const css = url.searchParams.get('css') === '1' ? `<style>${HOSTILE_CSS}</style>` : '';
    const body = url.searchParams.get('body') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>My blog</title>${css}</head><body><main><h1>My blog</h1>` +
        `<button id="host-button">A button of the blog</button><p>Read on.</p>${body}</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.2:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const hostPage = (site: HostSite, body: string, hostile = false) => `${site.origin}/?${new URLSearchParams({ body, css: hostile ? '1' : '0' })}`;

/** The embed's card (inside its shadow root: Playwright's locators pierce open shadow roots). */
const embedForm = (tab: Page) => tab.locator('[data-plink-embed] form');

/** Fills and sends the embedded form, after a person's pause (the form token refuses a sign-up sooner than 2 s). */
async function subscribe(tab: Page, email: string): Promise<void> {
  await tab.waitForTimeout(2_200);
  await tab.getByRole('textbox', { name: 'Email address' }).fill(email);
  await tab.getByRole('checkbox', { name: 'I agree to the privacy policy' }).check();
  await tab.getByRole('button', { name: 'Subscribe' }).click();
}

async function freshVisitor(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext(options);
  return { context, tab: await context.newPage() };
}

test('the form embedded on another site: inline, popup, slide-in and plain HTML, each subscribes', async ({ page, browser, smtp, gateway }) => {
  test.setTimeout(240_000);
  const origin = gateway.origin;
  const publicOrigin = gateway.publicOrigin;
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const site = await startHostSite();
  const pages: Record<'plain' | 'doi', { id: number; slug: string }> = { plain: { id: 0, slug: `e2e-embed-${tag}` }, doi: { id: 0, slug: `e2e-embed-doi-${tag}` } };

  await test.step('a creator (Pro: two pages, the badge kept on) has two pages, one asking visitors to confirm', async () => {
    const creator = newIdentity('embed');
    await registerAndVerify(page, creator, smtp, origin);
    await grantPro(gateway.databaseUrl, creator.email);
    for (const [kind, p] of Object.entries(pages)) {
      const created = await page.request.post(`${origin}/api/pages`, {
        data: { slug: p.slug, title: `Blog list ${kind}`, buttonText: 'Subscribe', thankYouHeadline: 'Welcome aboard', doubleOptIn: kind === 'doi' },
        headers: { origin },
      });
      expect(created.status()).toBe(201);
      p.id = ((await created.json()) as { id: number }).id;
    }
  });

  const leadsOf = async (id: number) =>
    ((await (await page.request.get(`${origin}/api/pages/${id}/leads`)).json()) as { leads: { email: string; status: string; sourceLabel: string; referrer: string }[] })
      .leads;

  for (const kind of ['plain', 'doi'] as const) {
    const { slug, id } = pages[kind];
    const snippets = embedSnippets(publicOrigin, slug, { buttonText: 'Subscribe', consent: { before: 'I agree to the ', linkText: 'privacy policy', privacyHref: '/privacy' } });
    const thanks = kind === 'doi' ? 'Check your inbox to confirm your e-mail.' : 'Welcome aboard';

    await test.step(`inline (${kind}): drawn where the tag stands, unchanged by the host's CSS, and subscribes`, async () => {
      const plainSite = await freshVisitor(browser);
      await plainSite.tab.goto(hostPage(site, snippets.inline));
      await expect(embedForm(plainSite.tab)).toBeVisible();
      // Measured once the page's web fonts are in, on both sites: a fallback face is a pixel off in height.
      await plainSite.tab.evaluate(() => document.fonts.ready.then(() => undefined));
      const box = await plainSite.tab.locator('[data-plink-embed] .card').boundingBox();
      const fontSize = await plainSite.tab.getByRole('button', { name: 'Subscribe' }).evaluate((el) => getComputedStyle(el).fontSize);
      await plainSite.context.close();

      const { context, tab } = await freshVisitor(browser);
      await tab.goto(hostPage(site, snippets.inline, true));
      await expect(embedForm(tab)).toBeVisible();
      await tab.evaluate(() => document.fonts.ready.then(() => undefined));
      const hostileBox = await tab.locator('[data-plink-embed] .card').boundingBox();
      expect(hostileBox?.width).toBe(box?.width);
      expect(hostileBox?.height).toBe(box?.height);
      expect(await tab.getByRole('button', { name: 'Subscribe' }).evaluate((el) => getComputedStyle(el).fontSize)).toBe(fontSize);
      // The page's branding is on: the embed carries the badge, as the page does.
      await expect(tab.locator('[data-plink-embed]').getByRole('link', { name: 'Made with Plink' })).toBeVisible();

      await subscribe(tab, `inline.${kind}.${tag}@example.com`);
      await expect(tab.getByText(thanks)).toBeVisible();
      await context.close();
    });

    await test.step(`popup (${kind}): opens after its delay, Escape closes it and gives focus back, then stays away`, async () => {
      const popup = snippets.popup.replace('delay:10', 'delay:1');
      const { context, tab } = await freshVisitor(browser);
      await tab.goto(hostPage(site, popup, true));
      await tab.locator('#host-button').focus();
      const dialog = tab.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(tab.getByRole('textbox', { name: 'Email address' })).toBeFocused();
      if (kind === 'plain') {
        // Tab cycles inside the open dialog.
        for (let i = 0; i < 8; i++) await tab.keyboard.press('Tab');
        expect(await tab.evaluate(() => document.activeElement?.hasAttribute('data-plink-embed'))).toBe(true);
        const axe = await new AxeBuilder({ page: tab }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        const blocking = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
      await tab.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(tab.locator('#host-button')).toBeFocused();
      // A second visit within 7 days: no popup.
      await tab.reload();
      await tab.waitForTimeout(2_500);
      await expect(tab.getByRole('dialog')).toHaveCount(0);
      await context.close();

      const visitor = await freshVisitor(browser);
      await visitor.tab.goto(hostPage(site, popup));
      await expect(visitor.tab.getByRole('dialog')).toBeVisible();
      await subscribe(visitor.tab, `popup.${kind}.${tag}@example.com`);
      await expect(visitor.tab.getByText(thanks)).toBeVisible();
      // A click outside closes it.
      await visitor.tab.mouse.click(5, 5);
      await expect(visitor.tab.getByRole('dialog')).toHaveCount(0);
      await visitor.context.close();
    });

    await test.step(`slide-in (${kind}): the close button closes it; it subscribes`, async () => {
      const slide = snippets.slideIn.replace('scroll:50', 'delay:1');
      const { context, tab } = await freshVisitor(browser);
      await tab.goto(hostPage(site, slide, true));
      await expect(tab.getByRole('dialog')).toBeVisible();
      await subscribe(tab, `slide.${kind}.${tag}@example.com`);
      await expect(tab.getByText(thanks)).toBeVisible();
      await tab.getByRole('button', { name: 'Close' }).click();
      await expect(tab.getByRole('dialog')).toHaveCount(0);
      await context.close();
    });

    // Once (on the page whose views are not counted below): the editor's slide-in snippet as given, scroll:50.
    if (kind === 'doi') {
      await test.step('slide-in on a page too short to scroll: its scroll trigger waits 10 s instead of opening on load', async () => {
        const { context, tab } = await freshVisitor(browser);
        await tab.goto(hostPage(site, snippets.slideIn));
        const loaded = Date.now();
        // The host page fits in the window: no scroll can reach 50 %.
        expect(await tab.evaluate(() => document.documentElement.scrollHeight <= innerHeight)).toBe(true);
        await tab.waitForTimeout(3_000);
        await expect(tab.getByRole('dialog')).toHaveCount(0);
        await expect(tab.getByRole('dialog')).toBeVisible({ timeout: 30_000 });
        // Not sooner than the fallback delay (a busy machine only makes it later).
        expect(Date.now() - loaded).toBeGreaterThanOrEqual(8_000);
        await context.close();
      });
    }

    await test.step(`plain HTML (${kind}), JavaScript off: posted across sites, confirmed by e-mail`, async () => {
      const { context, tab } = await freshVisitor(browser, { javaScriptEnabled: false });
      await tab.goto(hostPage(site, snippets.html));
      await tab.getByRole('textbox', { name: 'Email address' }).fill(`html.${kind}.${tag}@example.com`);
      await tab.getByRole('checkbox', { name: /I agree to the/ }).check();
      await tab.getByRole('button', { name: 'Subscribe' }).click();
      // Its sign-up waits for the confirmation: the thank-you says so (a double opt-in page's always does).
      await expect(tab).toHaveURL(`${publicOrigin}/${slug}?submitted=${kind === 'doi' ? '1' : 'confirm'}`);
      await expect(tab.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
      await expect(tab.getByText('Check your inbox to confirm your e-mail.')).toBeVisible();
      await smtp.waitFor((m) => m.to.includes(`html.${kind}.${tag}@example.com`) && /confirm/i.test(m.subject), 20_000);
      await context.close();
    });

    await test.step(`the leads (${kind}): source "embed", from the host site`, async () => {
      const leads = await leadsOf(id);
      const emails = ['inline', 'popup', 'slide', 'html'].map((m) => `${m}.${kind}.${tag}@example.com`);
      expect(leads.map((l) => l.email).sort()).toEqual([...emails].sort());
      for (const lead of leads) {
        expect(lead.sourceLabel).toBe('embed');
        expect(lead.referrer).toBe('127.0.0.2');
        // Double opt-in: every lead waits; otherwise only the plain form's, which always confirms by e-mail.
        expect(lead.status).toBe(kind === 'doi' || lead.email.startsWith('html.') ? 'pending' : 'confirmed');
      }
    });
  }

  await test.step("the embed's views count under the source embed, only when the form was shown", async () => {
    await expect
      .poll(
        async () => {
          const stats = (await (await page.request.get(`${origin}/api/pages/${pages.plain.id}/stats`)).json()) as {
            breakdowns: { utmSources: { value: string; views: number; leads: number }[] };
          };
          return stats.breakdowns.utmSources.find((r) => r.value === 'embed');
        },
        { timeout: 30_000 },
      )
      // Inline twice (with and without the hostile CSS), the popup twice and the slide-in once: 5 shown forms.
      .toMatchObject({ views: 5, leads: 3 });
  });

  await site.close();
});
