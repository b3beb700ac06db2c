import { FormTokens } from '@plink/crypto';
import { TEST_SESSION_SECRET } from '@plink/testing';

/** How long ago the stand-in visitor loaded the page: past the form token's 2 s wait. */
const VISIT_AGE_MS = 5_000;
const SUBMIT_PATH = /^\/api\/page\/([^/?]+)\/submit(?:\?|$)/;
const TOKEN_FIELD = /name="formToken" value="([^"]+)"/;
/** A crawler's user agent: fetching the page to read its form does not count a view. */
const READER = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };

/**
 * The form token of the page at `pagePath` as a visitor who loaded it {@link VISIT_AGE_MS} ago holds it: the page
 * is fetched (not counted as a view) for the token its form carries, and a token of the same page is signed
 * with the test environment's secret, issued that long ago, so the test need not wait the 2 s. Undefined when
 * the page serves no form (missing, paused).
 */
export async function visitorFormToken(origin: string, pagePath: string): Promise<string | undefined> {
  const page = await fetch(origin + pagePath, { headers: READER }).catch(() => undefined);
  if (!page?.ok) return undefined;
  const served = TOKEN_FIELD.exec(await page.text())?.[1];
  if (!served) return undefined;
  const pageId = parseInt(served.split('.')[1], 36);
  return new FormTokens(TEST_SESSION_SECRET).issue(pageId, Date.now() - VISIT_AGE_MS);
}

/**
 * A visitor's JSON submission body as the page's script sends it: with the page's form token, unless the test
 * sets `formToken` itself (to leave it out, send `formToken: undefined`).
 */
export async function withVisitorToken(origin: string, path: string, body: unknown): Promise<unknown> {
  const slug = SUBMIT_PATH.exec(path)?.[1];
  if (!slug || !body || typeof body !== 'object' || Array.isArray(body) || 'formToken' in body) return body;
  const formToken = await visitorFormToken(origin, `/${slug}`);
  return formToken ? { ...body, formToken } : body;
}
