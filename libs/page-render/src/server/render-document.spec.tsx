import { makePage } from '../__fixtures__/page';
import { renderNotFoundDocument, renderPausedDocument, renderPublicPageDocument, type PublicPageDocumentOptions } from './render-document';
import { escapeHtml, htmlToText, scriptJson, truncate } from './escape';
import type { PublicPageDto } from '@plink/contracts';

const ORIGIN = 'https://plink.test';
const base: PublicPageDocumentOptions = { state: 'form', canonicalUrl: `${ORIGIN}/photo-guide`, appOrigin: ORIGIN };

function doc(page: PublicPageDto = makePage(), options: Partial<PublicPageDocumentOptions> = {}) {
  return renderPublicPageDocument(page, { ...base, ...options });
}
const headOf = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
const bodyOf = (html: string) => html.slice(html.indexOf('<body>'), html.indexOf('</body>'));
const metaContent = (html: string, key: string) => {
  const m = new RegExp(`<meta (?:name|property)="${key.replace(/[:]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return m ? m[1] : null;
};
function preloaded(html: string): unknown {
  const m = /<script>window\.__PLINK_PAGE__=([\s\S]*?);<\/script>/.exec(html);
  if (!m) throw new Error('no preloaded page');
  return JSON.parse(m[1]);
}
/** The (text of the) inline scripts of the document, in order. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}

describe('renderPublicPageDocument — head', () => {
  it('is an HTML5 document with title, description, canonical and favicon', () => {
    const html = doc(makePage({ metaTitle: 'Photo tips', metaDescription: 'Get ten tips.' }));
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Photo tips</title>');
    expect(metaContent(html, 'description')).toBe('Get ten tips.');
    expect(html).toContain('<link rel="canonical" href="https://plink.test/photo-guide">');
    expect(html).toContain('<link rel="icon" href="/favicon.ico">');
  });

  it("falls back from metaTitle to the title to 'Plink'", () => {
    expect(doc(makePage({ metaTitle: null })).match(/<title>(.*)<\/title>/)![1]).toBe('The Free Photo Guide');
    expect(doc(makePage({ metaTitle: null, title: '' })).match(/<title>(.*)<\/title>/)![1]).toBe('Plink');
  });

  it("describes the page with its subtext's text when there is no meta description", () => {
    const html = doc(makePage({ subtext: '<h1>Big&nbsp;news</h1><p>Tips &amp; tricks<br>for &lt;you&gt; &#8212; free</p>' }));
    expect(metaContent(html, 'description')).toBe('Big news Tips &amp; tricks for &lt;you&gt; — free');
    expect(metaContent(doc(makePage({ subtext: null })), 'description')).toBeNull();
  });

  it('uses the page favicon', () => {
    expect(doc(makePage({ faviconUrl: '/uploads/fav.png' }))).toContain('<link rel="icon" href="/uploads/fav.png">');
  });

  it('has Open Graph and Twitter tags with absolute image URLs', () => {
    const html = doc(makePage({ metaTitle: 'Share me', metaDescription: 'Nice', imageUrl: '/uploads/main.png' }));
    expect(metaContent(html, 'og:type')).toBe('website');
    expect(metaContent(html, 'og:title')).toBe('Share me');
    expect(metaContent(html, 'og:description')).toBe('Nice');
    expect(metaContent(html, 'og:url')).toBe('https://plink.test/photo-guide');
    expect(metaContent(html, 'og:image')).toBe('https://plink.test/uploads/main.png');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:title')).toBe('Share me');
    expect(metaContent(html, 'twitter:description')).toBe('Nice');
    expect(metaContent(html, 'twitter:image')).toBe('https://plink.test/uploads/main.png');
  });

  it('prefers the sharing image, keeps absolute URLs, and says summary without an image', () => {
    const withMeta = doc(makePage({ metaImageUrl: 'https://cdn.example.com/og.png', imageUrl: '/uploads/main.png' }), {
      appOrigin: 'https://plink.test/',
    });
    expect(metaContent(withMeta, 'og:image')).toBe('https://cdn.example.com/og.png');
    const mainOnly = doc(makePage({ imageUrl: '/uploads/main.png' }), { appOrigin: 'https://plink.test/' });
    expect(metaContent(mainOnly, 'og:image')).toBe('https://plink.test/uploads/main.png');
    const none = doc();
    expect(metaContent(none, 'og:image')).toBeNull();
    expect(metaContent(none, 'twitter:image')).toBeNull();
    expect(metaContent(none, 'twitter:card')).toBe('summary');
  });

  it("puts the owner's custom code into <head> as written", () => {
    const code = '<script async src="https://stats.example.com/s.js"></script>\n<style>.x{color:red}</style>';
    const html = doc(makePage({ customCodeSnippet: code }));
    expect(headOf(html)).toContain(code);
    expect(bodyOf(html)).not.toContain('stats.example.com');
  });

  it('inlines the stylesheet once', () => {
    const html = doc();
    expect(html.split('<style>').length - 1).toBe(1);
    expect(headOf(html)).toContain('.plk-card{');
  });

  it('moves React image preload hints into <head>', () => {
    const html = doc(makePage({ imageUrl: '/uploads/main.png' }));
    expect(headOf(html)).toContain('<link rel="preload" as="image" href="/uploads/main.png"/>');
    expect(html).toContain('<div id="root"><div class="plk-root"');
  });
});

describe('renderPublicPageDocument — escaping', () => {
  const hostile = '</title><script>alert(1)</script>"\'&<!--';

  it('escapes hostile titles and meta texts in text and attributes', () => {
    const html = doc(
      makePage({ title: hostile, metaTitle: null, metaDescription: `"><script>alert(2)</script>`, author: hostile }),
      { canonicalUrl: 'https://plink.test/x"><script>alert(3)</script>' },
    );
    const head = headOf(html);
    expect(head).toContain(`<title>${escapeHtml(hostile)}</title>`);
    expect(head).toContain('content="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    expect(head).toContain('href="https://plink.test/x&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"');
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toContain('"><script');
    // Only the preloaded data, the submit script: no script came from the texts.
    expect(inlineScripts(html)).toHaveLength(2);
  });

  it('keeps the preloaded JSON inside its script tag and parses back to the page', () => {
    const page = makePage({
      title: 'Break </script><script>alert(1)</script> & <!-- out',
      subtext: '<p>Line\u2028separator\u2029and &amp; more</p>',
      thankYouSubtext: 'A > B',
      customCodeSnippet: '<script>console.log("hi")</script>',
    });
    const html = doc(page);
    const json = /window\.__PLINK_PAGE__=([\s\S]*?);<\/script>/.exec(html)![1];
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
    expect(json).toContain('\\u2028');
    expect(preloaded(html)).toEqual(page);
  });

  it('escapes URLs the script and form use', () => {
    const html = doc(makePage({ slug: 'photo-guide' }), {
      submitUrl: '/api/page/x</script><script>alert(1)</script>/submit',
      formAction: '/x"><b>',
    });
    expect(html).toContain('action="/x&quot;&gt;&lt;b&gt;"');
    expect(html).not.toMatch(/<script>alert/);
    expect(inlineScripts(html)[1]).toContain('"submitUrl":"/api/page/x\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e/submit"');
  });

  it('escape helpers', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(scriptJson({ a: '</script>\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u2028"}');
    expect(scriptJson(undefined)).toBe('null');
    expect(htmlToText('<p>a</p><p>b&amp;c</p>')).toBe('a b&c');
    expect(truncate('one two three', 8)).toBe('one two…');
    expect(truncate('short', 8)).toBe('short');
  });
});

describe('renderPublicPageDocument — body', () => {
  it('renders the landing page inside #root and the form posts to the page path by default', () => {
    const html = doc();
    expect(html).toMatch(/<div id="root"><div class="plk-root" data-plk-state="form" style="font-family:[^"]+">/);
    expect(html).toContain('<form class="plk-form" action="/photo-guide"');
    expect(html).toContain('method="post"');
    expect(inlineScripts(html)[1]).toContain('"submitUrl":"/api/page/photo-guide/submit"');
    expect(html).toContain('<template id="plk-thanks">');
  });

  it('uses the given form action and submit URL', () => {
    const html = doc(makePage(), { formAction: '/p/ann/photo-guide', submitUrl: '/api/page/photo-guide/submit?x=1' });
    expect(html).toContain('action="/p/ann/photo-guide"');
    expect(inlineScripts(html)[1]).toContain('"submitUrl":"/api/page/photo-guide/submit?x=1"');
  });

  it('carries the server\'s form token as the hidden field formToken, and none without one', () => {
    const html = doc(makePage(), { formToken: 'v1.2a.abc.token"<x>' });
    expect(html).toContain('<input type="hidden" name="formToken" value="v1.2a.abc.token&quot;&lt;x&gt;"/>');
    expect(doc(makePage(), {})).not.toContain('name="formToken"');
  });

  it('re-draws a failed post with the error and the e-mail', () => {
    const html = doc(makePage(), { error: 'Please enter a valid email address', submittedEmail: 'bad"<x>' });
    expect(html).toContain('<p class="plk-error" role="alert">Please enter a valid email address</p>');
    expect(html).toContain('value="bad&quot;&lt;x&gt;"');
  });

  it('draws the thank-you state without script or template, redirecting via meta refresh', () => {
    const html = doc(makePage({ redirectUrl: 'https://example.com/next?a=1&b=2' }), { state: 'thank-you' });
    expect(html).toContain('data-plk-state="thank-you"');
    expect(html).toContain('Redirecting you shortly...');
    expect(html).not.toContain('<form');
    expect(html).not.toContain('<template');
    expect(inlineScripts(html)).toHaveLength(1); // the preloaded data only
    expect(html).toContain('<meta http-equiv="refresh" content="3;url=https://example.com/next?a=1&amp;b=2">');
    expect(doc(makePage(), { state: 'thank-you' })).not.toContain('http-equiv="refresh"');
  });

  it('is deterministic', () => {
    const page = makePage({ imageUrl: '/uploads/a.png', thankYouButtonText: 'Go', thankYouButtonUrl: 'https://a.example' });
    expect(doc(page)).toBe(doc(page));
  });
});

describe('size budget', () => {
  const subtext = `<p>${'Learn to take beautiful photos with any camera. '.repeat(7).slice(0, 300)}</p>`;
  const typical = makePage({
    title: 'The Free Photo Guide: 10 tips for better photos',
    subtext,
    author: 'Ann Adams',
    thankYouButtonText: 'Download now',
    thankYouButtonUrl: 'https://files.example.com/guide.pdf',
    redirectUrl: 'https://example.com/next',
    metaDescription: 'Ten tips for better photos with any camera, free.',
  });

  it('keeps a typical page without images under 20 KB', () => {
    const html = doc(typical);
    const bytes = Buffer.byteLength(html, 'utf8');
    expect(subtext.length).toBeGreaterThanOrEqual(300);
    expect(bytes).toBeLessThan(20 * 1024);
    // Reported in the handover: the measured size.
    process.stdout.write(`typical page document: ${bytes} bytes\n`);
  });

  it('loads no external script and no React: only what customCodeSnippet brings', () => {
    expect(doc(typical)).not.toMatch(/<script[^>]*\bsrc=/i);
    const withCode = doc(makePage({ customCodeSnippet: '<script src="https://stats.example.com/s.js"></script>' }));
    expect(withCode.match(/<script[^>]*\bsrc=/gi)).toEqual(['<script src=']);
    expect(doc(typical)).not.toMatch(/react/i);
  });

  it('keeps the inline submit script under 4 KB', () => {
    const script = inlineScripts(doc(typical))[1];
    expect(Buffer.byteLength(script, 'utf8')).toBeLessThan(4 * 1024);
  });
});

describe('renderPublicPageDocument — fonts and tracking', () => {
  it('declares only the web fonts the page draws and preloads the headline font', () => {
    const html = headOf(doc(makePage({ titleFont: 'Montserrat', titleBold: true, descriptionFont: 'Georgia', authorFont: 'Georgia' })));
    expect(html).toContain('<link rel="preload" href="/fonts/montserrat-latin-700-normal.woff2" as="font" type="font/woff2" crossorigin>');
    expect(html.match(/@font-face/g)).toHaveLength(2);
    expect(html).not.toMatch(/inter-latin/);
  });

  it("adds Google Analytics and the Meta pixel with the page's ids", () => {
    const html = headOf(doc(makePage({ googleAnalyticsId: 'G-ABC1234567', facebookPixelId: '1234567890' })));
    expect(html).toContain('<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC1234567"></script>');
    expect(html).toContain(`gtag('config',"G-ABC1234567")`);
    expect(html).toContain(`fbq('init',"1234567890")`);
    expect(html).toContain('https://www.facebook.com/tr?id=1234567890&amp;ev=PageView&amp;noscript=1');
    expect(headOf(doc(makePage()))).not.toMatch(/gtag|fbq/);
  });

  it('never writes an id that is not one into the page', () => {
    const html = doc(makePage({ googleAnalyticsId: "G-1');alert(1);//", facebookPixelId: '1"><script>alert(1)</script>' }));
    expect(html).not.toMatch(/gtag|fbq|googletagmanager|<script>alert/);
  });
});

describe('renderNotFoundDocument', () => {
  it('says the page does not exist and links home', () => {
    const html = renderNotFoundDocument();
    expect(html).toContain('<title>Page Not Found</title>');
    expect(html).toContain('<h1>Page Not Found</h1>');
    expect(html).toContain("This Plink page doesn't exist or may have been removed.");
    expect(html).toContain('<a href="/">');
    expect(renderNotFoundDocument('https://plink.test/')).toContain('<a href="https://plink.test/">');
    expect(renderNotFoundDocument('https://x.test/"><script>')).not.toContain('<script>');
  });
});

describe('renderPausedDocument', () => {
  it("says the page is paused because the creator's plan changed, is never indexed, and links home", () => {
    const html = renderPausedDocument('https://plink.test');
    expect(html).toContain('<title>This page is paused</title>');
    expect(html).toContain('<h1>This page is paused</h1>');
    expect(html).toContain("The creator's plan changed, so this page is not available right now.");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<a href="https://plink.test/">');
    expect(html).not.toContain('<script');
  });
});
