import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import type { SmtpCatcher } from '@plink/testing';
import { expect, grantPro, newIdentity, registerAndVerify, test, type Gateway } from './fixtures';

/**
 * The journey of isolation-one-host.e2e-spec.ts and isolation-public-host.e2e-spec.ts (one gateway set-up per
 * file, as Playwright starts a worker per set-up). A Pro creator's custom code cannot reach another creator who opens the page while signed in, in both
 * set-ups: one host (the page is sandboxed: an opaque origin) and landing pages on a host of their own
 * (PUBLIC_ORIGIN = http://localhost:<port>, the app on http://127.0.0.1:<port>, one gateway). The code tries
 * what a thief would (the victim's account, their pages' lead export, renaming their page, their cookies and
 * the app's localStorage) and writes what it got into the page; the test reads that. Visitors can still
 * sign up on the page with and without JavaScript.
 */

const MARKER = 'app-storage-marker-7f3c';
const PAGE_TITLE = 'Creator A private page';

/** The probe: every attempt's outcome as text, written into `<pre id="probe" data-done>` when all are settled. */
function probeSnippet(appOrigin: string, victimPageId: number): string {
  return `<script>
(function(){
  var out = {};
  function fail(e){ return 'blocked: ' + (e && e.name ? e.name : String(e)); }
  function read(url, init){
    return fetch(url, init).then(function(r){ return r.text().then(function(t){ return 'status ' + r.status + ': ' + t.slice(0, 300); }); }, fail);
  }
  try { out.cookie = 'read: ' + document.cookie; } catch (e) { out.cookie = fail(e); }
  try { out.storage = 'read: ' + window.localStorage.getItem(${JSON.stringify('plink-e2e-marker')}); } catch (e) { out.storage = fail(e); }
  var put = { method: 'PUT', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'Renamed by a stranger' }) };
  var jobs = {
    user: read('/api/user', { credentials: 'include' }),
    pages: read('/api/pages', { credentials: 'include' }),
    exportCsv: read('/api/pages/${victimPageId}/export', { credentials: 'include' }),
    rename: read('/api/pages/${victimPageId}', put),
    appUser: read(${JSON.stringify(appOrigin)} + '/api/user', { credentials: 'include' }),
    appExport: read(${JSON.stringify(appOrigin)} + '/api/pages/${victimPageId}/export', { credentials: 'include' }),
    appRename: read(${JSON.stringify(appOrigin)} + '/api/pages/${victimPageId}', put)
  };
  var names = Object.keys(jobs);
  Promise.all(names.map(function(k){ return jobs[k]; })).then(function(values){
    names.forEach(function(k, i){ out[k] = values[i]; });
    out.origin = String(self.origin);
    function show(){ var p = document.createElement('pre'); p.id = 'probe'; p.textContent = JSON.stringify(out); p.setAttribute('data-done', '1'); document.body.appendChild(p); }
    if (document.body) show(); else document.addEventListener('DOMContentLoaded', show);
  });
})();
</script>`;
}

/** A page through the API, as the signed-in creator of `request` (the SPA's own call). */
async function createPage(request: APIRequestContext, origin: string, fields: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const res = await request.post(`${origin}/api/pages`, { data: fields, headers: { origin } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; slug: string };
}

async function signUpOnPage(visitor: Page, url: string, email: string): Promise<void> {
  await visitor.goto(url);
  // A person reads the page before signing up (a form sent sooner than 2 s after the page is a script's).
  await visitor.waitForTimeout(3_000);
  await visitor.getByRole('textbox', { name: 'Email address' }).fill(email);
  await visitor.getByRole('checkbox', { name: 'I agree to the privacy policy' }).check();
  await visitor.getByRole('button', { name: 'Join' }).click();
  await expect(visitor.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
}

export const ISOLATION_TITLE = 'a signed-in creator opening another creator’s page with custom code loses nothing; visitors still sign up';

export async function isolationJourney({ page, browser, smtp, gateway }: { page: Page; browser: Browser; smtp: SmtpCatcher; gateway: Gateway }): Promise<void> {
  const { origin, publicOrigin } = gateway;
  const sandboxed = origin === publicOrigin;
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

  // Creator A: signed in on the app, with a marker in the app's localStorage and a page with a lead.
  const a = newIdentity('vic');
  await registerAndVerify(page, a, smtp, origin);
  await page.evaluate((marker) => localStorage.setItem('plink-e2e-marker', marker), MARKER);
  const victimPage = await createPage(page.request, origin, { slug: `victim-${tag}`, title: PAGE_TITLE });
  const victimLead = `victim-lead.${tag}@example.com`;
  // A visitor's sign-up as the page's script sends it: with the form token the page carries, 2 s after the page.
  const served = await (await page.request.get(`${publicOrigin}/${victimPage.slug}`)).text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(served)?.[1];
  expect(formToken).toBeTruthy();
  await page.waitForTimeout(2_100);
  const lead = await page.request.post(`${publicOrigin}/api/page/${victimPage.slug}/submit`, {
    data: { email: victimLead, consent: true, formToken },
    headers: { origin: publicOrigin },
  });
  expect(lead.status(), await lead.text()).toBe(200);
  const sessionCookie = (await page.context().cookies()).find((c) => c.name === 'plink_session');
  expect(sessionCookie?.value).toBeTruthy();

  // Creator B (Pro): a page whose custom code tries to rob whoever opens it.
  const b = newIdentity('pro');
  const bContext: BrowserContext = await browser.newContext({ baseURL: origin });
  const bPage = await bContext.newPage();
  await registerAndVerify(bPage, b, smtp, origin);
  await grantPro(gateway.databaseUrl, b.email);
  const trap = await createPage(bPage.request, origin, {
    slug: `trap-${tag}`,
    title: 'Free guide',
    buttonText: 'Join',
    customCodeSnippet: probeSnippet(origin, victimPage.id),
  });

  // A opens B's page, still signed in on the app.
  const trapUrl = `${publicOrigin}/${trap.slug}`;
  const answer = await page.goto(trapUrl);
  expect(answer?.status()).toBe(200);
  const csp = answer?.headers()['content-security-policy'];
  if (sandboxed) expect(csp).toMatch(/^sandbox allow-scripts allow-forms /);
  else expect(csp).toBeUndefined();
  await expect(page.locator('#probe[data-done]')).toBeAttached({ timeout: 20_000 });
  const found = JSON.parse((await page.locator('#probe').textContent()) ?? '{}') as Record<string, string>;
  test.info().annotations.push({ type: 'probe', description: JSON.stringify(found) });

  // The code ran (it wrote every finding), but got nothing of A's.
  expect(Object.keys(found).sort()).toEqual(['appExport', 'appRename', 'appUser', 'cookie', 'exportCsv', 'origin', 'pages', 'rename', 'storage', 'user']);
  const everything = JSON.stringify(found);
  for (const secret of [a.username, a.email, victimLead, PAGE_TITLE, MARKER, 'plink_session', sessionCookie!.value]) {
    expect(everything, `the page's code read "${secret}"`).not.toContain(secret);
  }
  for (const call of ['appUser', 'appExport', 'appRename']) {
    // Cross-origin without CORS: the browser refuses to hand over the answer.
    expect(found[call], call).toMatch(/^blocked: TypeError/);
  }
  if (sandboxed) {
    expect(found.origin).toBe('null');
    for (const call of ['user', 'pages', 'exportCsv', 'rename']) expect(found[call], call).toMatch(/^blocked: TypeError/);
    expect(found.cookie).toMatch(/^blocked: SecurityError/);
    expect(found.storage).toMatch(/^blocked: SecurityError/);
  } else {
    expect(found.origin).toBe(publicOrigin);
    // The public host has no app: its /api answers 404 (and holds no session of A's anyway).
    for (const call of ['user', 'pages', 'exportCsv', 'rename']) expect(found[call], call).toMatch(/^status 404:/);
    expect(found.cookie).toBe('read: ');
    expect(found.storage).toBe('read: null');
  }

  // The same page asked on the app's own address under other spellings (percent-escapes the router decodes,
  // stray slashes): the code never runs with the app's origin. With a host of their own, pages are sent there.
  const rest = trap.slug.slice(1); // the slug without its leading "t" (%74)
  for (const path of [`/%74${rest}`, `/%70/${trap.slug}`, `/p/%74${rest}?submitted=1`, `/${trap.slug.replace('-', '%2D')}`, `//${trap.slug}`]) {
    const other = await page.goto(`${origin}${path}`);
    const landed = new URL(page.url());
    if (!sandboxed) expect(landed.origin, path).toBe(publicOrigin);
    if (other?.status() !== 200) continue;
    if (sandboxed) expect(other.headers()['content-security-policy'], path).toMatch(/^sandbox allow-scripts allow-forms /);
    await expect(page.locator('#probe[data-done]'), path).toBeAttached({ timeout: 20_000 });
    const probed = JSON.parse((await page.locator('#probe').textContent()) ?? '{}') as Record<string, string>;
    expect(probed.origin, path).toBe(sandboxed ? 'null' : publicOrigin);
    const got = JSON.stringify(probed);
    for (const secret of [a.username, a.email, victimLead, PAGE_TITLE, MARKER, sessionCookie!.value]) {
      expect(got, `the page's code read "${secret}" at ${path}`).not.toContain(secret);
    }
  }

  // A's page kept its name, and A is still signed in with the marker in place.
  const mine = await page.request.get(`${origin}/api/pages/${victimPage.id}`);
  expect(mine.status()).toBe(200);
  expect(((await mine.json()) as { title: string }).title).toBe(PAGE_TITLE);
  await page.goto(`${origin}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The dashboard shows and links the page on the landing pages' host.
  const shown = `${new URL(publicOrigin).host}/${victimPage.slug}`;
  const link = page.getByRole('link', { name: shown, exact: true });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', sandboxed ? `/${victimPage.slug}` : `${publicOrigin}/${victimPage.slug}`);
  expect(await page.evaluate(() => localStorage.getItem('plink-e2e-marker'))).toBe(MARKER);

  // Visitors sign up on B's page, with JavaScript and without it.
  const withJs = `with-js.${tag}@example.com`;
  const withoutJs = `without-js.${tag}@example.com`;
  const jsContext = await browser.newContext();
  await signUpOnPage(await jsContext.newPage(), trapUrl, withJs);
  const noJsContext = await browser.newContext({ javaScriptEnabled: false });
  const noJsVisitor = await noJsContext.newPage();
  await signUpOnPage(noJsVisitor, trapUrl, withoutJs);
  await expect(noJsVisitor).toHaveURL(`${trapUrl}?submitted=1`);

  // B sees both leads (and A's lead is not among them).
  const csv = await bPage.request.get(`${origin}/api/pages/${trap.id}/export`);
  expect(csv.status()).toBe(200);
  const rows = await csv.text();
  expect(rows).toContain(withJs);
  expect(rows).toContain(withoutJs);
  expect(rows).not.toContain(victimLead);

  await Promise.all([jsContext.close(), noJsContext.close(), bContext.close()]);
}
