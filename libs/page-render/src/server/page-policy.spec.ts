import { createHash } from 'node:crypto';
import { makePage } from '../__fixtures__/page';
import { renderPublicPage } from './render-document';
import { SANDBOX_POLICY, hasCreatorCode } from './page-policy';

const ORIGIN = 'https://plink.test';
const options = { state: 'form' as const, canonicalUrl: `${ORIGIN}/photo-guide`, appOrigin: ORIGIN };
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const scriptSources = (csp: string | null) => /script-src ([^;]*)/.exec(csp ?? '')?.[1].split(' ') ?? [];
const inlineScripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

describe('a landing page’s Content-Security-Policy', () => {
  it('lets a page without its owner’s code run exactly its own inline scripts, on either set-up', () => {
    for (const isolation of ['sandbox', 'own-origin'] as const) {
      for (const state of ['form', 'thank-you'] as const) {
        const { html, contentSecurityPolicy } = renderPublicPage(makePage(), { ...options, state, isolation });
        expect(scriptSources(contentSecurityPolicy).sort()).toEqual(inlineScripts(html).map(hashOf).sort());
        expect(contentSecurityPolicy).toContain("default-src 'none'");
        expect(contentSecurityPolicy).not.toContain('sandbox');
      }
    }
  });

  it('changes its hashes when the page changes (a stale policy would block the page’s script)', () => {
    const a = renderPublicPage(makePage({ title: 'One' }), { ...options, isolation: 'sandbox' });
    const b = renderPublicPage(makePage({ title: 'Two' }), { ...options, isolation: 'sandbox' });
    expect(a.contentSecurityPolicy).not.toBe(b.contentSecurityPolicy);
  });

  it('sandboxes custom code or tracking on a shared host, and sets no script policy on a host of its own', () => {
    const custom = makePage({ customCodeSnippet: '<script>alert(1)</script>' });
    const ga = makePage({ googleAnalyticsId: 'G-ABC123' });
    const pixel = makePage({ facebookPixelId: '1234567890' });
    for (const page of [custom, ga, pixel]) {
      expect(hasCreatorCode(page)).toBe(true);
      expect(renderPublicPage(page, { ...options, isolation: 'sandbox' }).contentSecurityPolicy).toBe(SANDBOX_POLICY);
      expect(renderPublicPage(page, { ...options, isolation: 'own-origin' }).contentSecurityPolicy).toBeNull();
    }
    expect(SANDBOX_POLICY).toBe(
      'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
    );
    // Whitespace is no code; an id the tracking snippets would refuse is none either.
    expect(hasCreatorCode(makePage({ customCodeSnippet: '  \n', googleAnalyticsId: 'bad id!' }))).toBe(false);
  });
});
