import { expect, newIdentity, registerAndVerify, snap, test } from './fixtures';

/**
 * Double opt-in as a visitor meets it in a real browser: a creator's page asks visitors to confirm their
 * e-mail; a visitor signs up and is asked to check their inbox; the confirmation e-mail's link opens a small
 * page whose Confirm button (opening the link confirms nothing) confirms and shows the file link at once;
 * only then does the file e-mail come, and the creator's stats count the lead.
 */

const FILE_URL = 'https://files.example.com/opt-in-guide.pdf';

test('a visitor confirms their e-mail from the mailed link, and gets the file only then', async ({ page, browser, smtp, gateway }) => {
  test.setTimeout(180_000);
  const origin = gateway.origin;
  const creator = newIdentity('doi');
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const slug = `e2e-doi-${tag}`;
  const title = `Confirmed Guide ${tag}`;
  const visitorEmail = `visitor.${tag}@example.com`;
  let pageId = 0;

  await test.step('the creator makes a page that asks visitors to confirm their e-mail', async () => {
    await registerAndVerify(page, creator, smtp, origin);
    const created = await page.request.post(`${origin}/api/pages`, {
      data: { slug, title, fileUrl: FILE_URL, doubleOptIn: true },
      headers: { origin },
    });
    expect(created.status()).toBe(201);
    pageId = ((await created.json()) as { id: number }).id;
    await page.goto(`/editor/${pageId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByLabel(/Ask visitors to confirm their e-mail/)).toBeChecked();
  });

  const visitor = await browser.newContext({ baseURL: gateway.publicOrigin });
  const tab = await visitor.newPage();

  await test.step('a visitor signs up and is asked to check their inbox; no file yet', async () => {
    await tab.goto(`/${slug}`);
    // A person reads the page before signing up: a form sent sooner than 2 s after the page is a script's.
    await tab.waitForTimeout(3_000);
    await tab.getByRole('textbox', { name: 'Email address' }).fill(visitorEmail);
    await tab.getByRole('checkbox', { name: 'I agree to the privacy policy' }).check();
    await tab.getByRole('button', { name: 'Submit' }).click();
    await expect(tab.getByText('Check your inbox to confirm your e-mail.')).toBeVisible();
  });

  let link = '';
  await test.step('the confirmation e-mail carries the Confirm link; opening it confirms nothing', async () => {
    const mail = await smtp.waitFor((m) => m.to.includes(visitorEmail) && m.subject === `Please confirm your e-mail for ${title}`, 20_000);
    link = (mail.text.match(/https?:\/\/\S+/g) ?? []).find((l) => l.startsWith(`${gateway.publicOrigin}/confirm/`)) ?? '';
    expect(link).not.toBe('');
    await tab.goto(link);
    await expect(tab.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
    await expect(tab.getByText(title)).toBeVisible();
    await snap(tab, 'double-opt-in-confirm');
    const stats = await page.request.get(`${origin}/api/pages/${pageId}/stats`);
    expect(await stats.json()).toMatchObject({ conversions: 0, pending: 1 });
    expect(smtp.mails.some((m) => m.to.includes(visitorEmail) && m.text.includes(FILE_URL))).toBe(false);
  });

  await test.step('Confirm: the file link at once, the file e-mail, and the lead counted', async () => {
    await tab.getByRole('button', { name: 'Confirm' }).click();
    await expect(tab.getByRole('heading', { name: 'Your e-mail is confirmed' })).toBeVisible();
    await expect(tab.getByRole('link', { name: 'Open your file' })).toHaveAttribute('href', FILE_URL);
    await snap(tab, 'double-opt-in-confirmed');
    await smtp.waitFor((m) => m.to.includes(visitorEmail) && m.text.includes(FILE_URL), 20_000);
    const stats = await page.request.get(`${origin}/api/pages/${pageId}/stats`);
    expect(await stats.json()).toMatchObject({ conversions: 1, pending: 0, leads: [{ email: visitorEmail, status: 'confirmed' }] });
  });

  await visitor.close();
});
