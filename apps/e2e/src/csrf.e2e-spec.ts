import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommonMessages } from '@plink/contracts';
import { expect, newIdentity, registerAndVerify, test } from './fixtures';

/**
 * Cross-site request forgery in a real browser: a page on another origin of the same site (another port
 * of 127.0.0.1, so the SameSite=Lax session cookie still goes along) tries to create a page for the
 * signed-in creator with a plain form post and with a no-CORS fetch, and to sign the browser in to its
 * own account (login CSRF). Chromium marks each with Sec-Fetch-Site: same-site; the gateway refuses them
 * all with 403 and nothing changes.
 */

/** A one-page "attacker" site: each path is an HTML page that fires one request at `target` on load. */
function attackerSite(target: string, slug: string): Promise<{ origin: string; server: Server }> {
  const pages: Record<string, string> = {
    '/form': `<form method="post" action="${target}/api/pages"><input name="slug" value="${slug}-form"></form>
      <script>document.forms[0].submit()</script>`,
    '/fetch': `<p id="done">sending</p><script>
      fetch('${target}/api/pages', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ slug: '${slug}-fetch' }) }).finally(() => { document.getElementById('done').textContent = 'sent'; });
      </script>`,
    '/login': `<form method="post" action="${target}/api/login"><input name="email" value="attacker@example.com">
      <input name="password" value="attacker-secret"></form><script>document.forms[0].submit()</script>`,
  };
  const server = createServer((req, res) => {
    const html = pages[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

test('a page of another origin cannot act for the signed-in creator or sign the browser in', async ({ page, smtp, baseURL }) => {
  const origin = baseURL!;
  const creator = newIdentity('csrf');
  await registerAndVerify(page, creator, smtp, origin);
  const slug = `csrf-${Date.now().toString(36)}`;
  const { origin: attacker, server } = await attackerSite(origin, slug);
  try {
    // The form's POST, not the dashboard's GET /api/pages that may still be loading when the journey moves on.
    const formPost = page.waitForResponse((r) => r.url() === `${origin}/api/pages` && r.request().method() === 'POST');
    const [formAnswer] = await Promise.all([formPost, page.goto(`${attacker}/form`)]);
    expect(formAnswer.status()).toBe(403);
    expect(await formAnswer.json()).toEqual({ message: CommonMessages.crossSiteRequest });

    await page.goto(`${attacker}/fetch`);
    await expect(page.locator('#done')).toHaveText('sent');

    // Still signed in as the creator, with no page created by either attempt.
    const pages = await page.request.get(`${origin}/api/pages`);
    expect(pages.status()).toBe(200);
    expect((await pages.json()).map((p: { slug: string }) => p.slug)).not.toEqual(expect.arrayContaining([expect.stringContaining(slug)]));

    const [loginAnswer] = await Promise.all([page.waitForResponse(`${origin}/api/login`), page.goto(`${attacker}/login`)]);
    expect(loginAnswer.status()).toBe(403);
    expect(await loginAnswer.headerValue('set-cookie')).toBeNull();
    const me = await page.request.get(`${origin}/api/user`);
    expect((await me.json()).email).toBe(creator.email.toLowerCase());
  } finally {
    await new Promise((r) => server.close(r));
  }

  // The app's own calls still work from its own pages (the editor's JSON calls; the dashboard's list).
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
