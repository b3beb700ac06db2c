import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, grantPro, newIdentity, registerAndVerify, snap, test, toast } from './fixtures';

/**
 * The page editor as a Pro creator uses it in a real browser: every tab (Content,
 * Appearance, Settings, Thank You, Sharing), image uploads (re-encoded by the server), the live preview,
 * save — then the public page as a visitor and a link preview (crawler) see it: fonts, colours,
 * alignment, corners, shadow, images, branding, sharing tags, favicon, custom code. Also: leaving the
 * editor with unsaved changes asks first.
 */

/** A field's wrapper (label + inputs) in the editor, found by its label text. */
const fieldWrapper = (page: Page, label: string): Locator =>
  page.locator('.mantine-InputWrapper-root').filter({ has: page.getByText(label, { exact: true }) }).first();

/** A PNG photo-like test image of the given size (a gradient, so it is not trivially compressible). */
async function testImage(path: string, width: number, height: number): Promise<string> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 160;
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toFile(path);
  return path;
}

const head = async (page: Page, selector: string, attribute: string) => page.locator(`head ${selector}`).first().getAttribute(attribute);

test('a Pro creator builds a page through every tab, uploads images, and visitors and link previews see all of it', async ({
  page,
  browser,
  smtp,
  baseURL,
  gateway,
}) => {
  test.setTimeout(240_000);
  const origin = baseURL!;
  const creator = newIdentity('edi');
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const slug = `styled-${tag}`;
  const title = `Styled Page ${tag}`;
  const preview = page.getByTestId('live-preview');
  const mainImage = await testImage(test.info().outputPath('main-photo.png'), 2400, 1500);
  const faviconImage = await testImage(test.info().outputPath('icon.png'), 300, 300);
  let mainImageUrl = '';

  await test.step('a Pro creator opens the editor', async () => {
    await registerAndVerify(page, creator, smtp, origin);
    await grantPro(gateway.databaseUrl, creator.email);
    await page.goto('/editor/new?template=blank');
    await expect(page.getByRole('heading', { name: 'Create Page' })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['Content', 'Appearance', 'Settings', 'Thank You', 'Delivery e-mail', 'Sharing']);
  });

  await test.step('Content: texts, rich text and an uploaded main image', async () => {
    await page.getByLabel('URL Slug').fill(slug);
    await page.getByLabel('Title', { exact: true }).fill(title);
    const richText = page.getByRole('textbox', { name: 'Subtext' });
    await richText.click();
    await page.keyboard.type('Ten tips, ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('free');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' forever.');
    await page.getByLabel('Author Name', { exact: true }).fill('Ana Writes');
    await page.getByLabel('Button Text', { exact: true }).fill('Get the tips');
    await page.getByLabel('File URL', { exact: true }).fill('https://files.example.com/tips.pdf');

    await fieldWrapper(page, 'Main Image').locator('input[type="file"]').setInputFiles(mainImage);
    await expect(toast(page, 'Image uploaded')).toBeVisible();
    mainImageUrl = await page.getByLabel('Main Image URL').inputValue();
    expect(mainImageUrl).toMatch(/^\/uploads\/[A-Za-z0-9._/-]+\.(jpe?g|png|webp)$/);
    await expect(preview.locator('img.plk-img')).toHaveAttribute('src', mainImageUrl);
    await expect(preview.locator('.plk-subtext strong')).toHaveText('free');
    await snap(page, '01-editor-content');
  });

  await test.step('Appearance: colours, fonts, alignment, corners and shadow', async () => {
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByLabel('Button Color').fill('#e11d48');
    await page.getByLabel('Background Color').fill('#fef3c7');
    await page.getByRole('combobox', { name: 'Title Font' }).click();
    await page.getByRole('option', { name: 'Playfair Display' }).click();
    await page.getByRole('combobox', { name: 'Description Font' }).click();
    await page.getByRole('option', { name: 'Lato', exact: true }).click();
    await page.getByRole('combobox', { name: 'Author Font' }).click();
    await page.getByRole('option', { name: 'Georgia' }).click();
    await page.getByText('Center', { exact: true }).click();
    await page.getByRole('switch', { name: /^Sharp corners/ }).check();
    await page.getByRole('switch', { name: /^Hide drop shadow/ }).check();

    await expect(preview.getByRole('button', { name: 'Get the tips' })).toHaveCSS('background-color', 'rgb(225, 29, 72)');
    await expect(preview.locator('.plk-bg')).toHaveCSS('background-color', 'rgb(254, 243, 199)');
    await expect(preview.locator('.plk-card')).toHaveCSS('text-align', 'center');
    await expect(preview.locator('.plk-card')).toHaveCSS('box-shadow', 'none');
    await expect(preview.locator('.plk-card')).toHaveCSS('border-top-left-radius', '0px');
    await expect(preview.getByRole('heading', { name: title })).toHaveCSS('font-family', /^"?Playfair Display/);
    // The preview loads the chosen web font from the product itself.
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 26px "Playfair Display"'))).toBe(true);
    await snap(page, '02-editor-appearance');
  });

  await test.step('Settings: branding off (Pro), webhook, custom code, tracking', async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: /^Show 'Made with Plink' badge/ }).uncheck();
    await expect(preview.getByText('Made with Plink')).toHaveCount(0);
    await page.getByLabel(/Webhook URL/).fill('https://hooks.example.com/plink');
    await page.getByLabel(/Custom Code Snippet/).fill('<meta name="plink-e2e" content="custom code ran">');
    await page.getByLabel('Google Analytics ID').fill('G-E2ETEST123');
    await snap(page, '03-editor-settings');
  });

  await test.step('Thank You: texts and button, shown in the preview', async () => {
    await page.getByRole('tab', { name: 'Thank You' }).click();
    await page.getByLabel('Thank You Headline', { exact: true }).fill('The tips are on their way');
    await page.getByLabel('Thank You Button Text', { exact: true }).fill('Read the blog');
    await page.getByLabel('Thank You Button URL', { exact: true }).fill('https://blog.example.com/');
    await expect(preview.getByRole('heading', { name: 'The tips are on their way' })).toBeVisible();
    await expect(preview.getByRole('link', { name: 'Read the blog' })).toHaveAttribute('href', 'https://blog.example.com/');
    await snap(page, '04-editor-thank-you');
  });

  await test.step('Sharing: meta texts, the main image as sharing image, an uploaded favicon', async () => {
    await page.getByRole('tab', { name: 'Sharing' }).click();
    await page.getByLabel('Meta Title').fill(`Ten free tips ${tag}`);
    const description =
      'Ten practical tips for better photos with any camera, sent straight to your inbox as a short PDF guide that you can keep, print and share with friends.';
    expect(description.length).toBeGreaterThanOrEqual(150);
    expect(description.length).toBeLessThanOrEqual(160);
    await page.getByLabel('Meta Description').fill(description);
    await expect(page.getByTestId('meta-description-counter')).toHaveText(`${description.length} characters · a good length`);
    await page.getByRole('button', { name: 'Use Main Image' }).click();
    await expect(page.getByLabel('Sharing Image URL')).toHaveValue(mainImageUrl);
    await fieldWrapper(page, 'Favicon').locator('input[type="file"]').setInputFiles(faviconImage);
    await expect(page.getByLabel('Favicon URL')).toHaveValue(/^\/uploads\/.+\.png$/);
    // The main image's toast may still be fading out beside the new one.
    await expect(toast(page, 'Image uploaded').last()).toBeVisible();
    await snap(page, '05-editor-sharing');
  });

  await test.step('save → the dashboard', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Your page is live' }).getByRole('button', { name: 'Go to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible();
  });

  await test.step('a visitor sees every choice on the public page', async () => {
    const context = await browser.newContext({ baseURL: origin });
    try {
      const visitor = await context.newPage();
      await visitor.goto(`/${slug}`);
      const heading = visitor.getByRole('heading', { name: title });
      await expect(heading).toBeVisible();
      await expect(visitor).toHaveTitle(`Ten free tips ${tag}`);
      await expect(heading).toHaveCSS('font-family', /^"?Playfair Display/);
      await expect(heading).toHaveCSS('font-weight', '700');
      await expect.poll(() => visitor.evaluate(() => document.fonts.check('700 26px "Playfair Display"'))).toBe(true);
      await expect(visitor.locator('.plk-subtext')).toHaveCSS('font-family', /^"?Lato/);
      await expect(visitor.getByText('Ana Writes')).toHaveCSS('font-family', /^Georgia/);
      await expect(visitor.locator('.plk-bg')).toHaveCSS('background-color', 'rgb(254, 243, 199)');
      await expect(visitor.getByRole('button', { name: 'Get the tips' })).toHaveCSS('background-color', 'rgb(225, 29, 72)');
      const card = visitor.locator('.plk-card');
      await expect(card).toHaveCSS('text-align', 'center');
      await expect(card).toHaveCSS('box-shadow', 'none');
      await expect(card).toHaveCSS('border-top-left-radius', '0px');
      const image = visitor.locator('img.plk-img');
      await expect(image).toHaveAttribute('src', mainImageUrl);
      await expect(image).toHaveCSS('height', '260px');
      // Uploaded 2400 px wide: stored at most 1600 px wide.
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
      await expect(visitor.getByText('Made with Plink')).toHaveCount(0);
      expect(await head(visitor, 'meta[name="plink-e2e"]', 'content')).toBe('custom code ran');
      await expect(visitor.locator('head script[src*="googletagmanager.com/gtag/js?id=G-E2ETEST123"]')).toHaveCount(1);
      await snap(visitor, '06-public-page');
    } finally {
      await context.close();
    }
  });

  await test.step('a link preview (no JavaScript) finds the sharing tags and the favicon', async () => {
    const res = await fetch(`${origin}/${slug}`, { headers: { 'user-agent': 'facebookexternalhit/1.1' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const tagContent = (key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1];
    expect(tagContent('og:title')).toBe(`Ten free tips ${tag}`);
    expect(tagContent('description')).toMatch(/^Ten practical tips/);
    expect(tagContent('og:image')).toBe(`${origin}${mainImageUrl}`);
    expect(tagContent('twitter:image')).toBe(`${origin}${mainImageUrl}`);
    expect(tagContent('twitter:card')).toBe('summary_large_image');
    const favicon = /<link rel="icon" href="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(favicon).toMatch(/^\/uploads\/.+\.png$/);

    const icon = await fetch(origin + favicon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await icon.arrayBuffer())).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 64, height: 64 });
  });

  await test.step('on a phone-sized screen the preview is one switch away', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the dashboard lists its pages as cards.
    await page.getByRole('listitem', { name: title }).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Page' })).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toBeVisible();
    await expect(preview).toBeHidden();
    await page.getByText('Preview', { exact: true }).click();
    await expect(preview.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toBeHidden();
    await snap(page, '07-editor-phone-preview');
    await page.getByText('Edit', { exact: true }).click();
    await expect(page.getByLabel('Title', { exact: true })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  await test.step('leaving the editor with unsaved changes asks first', async () => {
    await page.getByRole('row').filter({ hasText: title }).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Page' })).toBeVisible();
    await page.getByLabel('Title', { exact: true }).fill(`${title} (draft)`);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(dialog).toBeVisible();
    await snap(page, '08-unsaved-changes');
    await dialog.getByRole('button', { name: 'Keep Editing' }).click();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`${title} (draft)`);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave Without Saving' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('row').filter({ hasText: `${title} (draft)` })).toHaveCount(0);
  });
});
