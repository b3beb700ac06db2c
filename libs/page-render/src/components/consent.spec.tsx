/**
 * @jest-environment jsdom
 */
import { cleanup, render } from '@testing-library/react';
import { makePage } from '../__fixtures__/page';
import { renderPublicPage } from '../server/render-document';
import { LandingPage } from './LandingPage';
import { consentStatement } from './consent';

afterEach(cleanup);

/** The consent label of a document as a browser reads it: its text and its link's href (null: no checkbox). */
function consentShownIn(html: string): { text: string; href: string | null } | null {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const label = doc.querySelector('form.plk-form label.plk-consent');
  if (!label) return null;
  return { text: label.textContent ?? '', href: label.querySelector('a')?.getAttribute('href') ?? null };
}

const served = (page = makePage(), error?: string) =>
  renderPublicPage(page, { state: 'form', canonicalUrl: 'https://plink.test/photo-guide', appOrigin: 'https://plink.test', isolation: 'sandbox', error }).html;

describe('consentStatement: the text a lead records is the text its page showed', () => {
  it('is the served page’s checkbox label, word for word, with its link', () => {
    const statement = consentStatement(makePage())!;
    expect(statement.text).toBe('I agree to the privacy policy');
    for (const html of [served(), served(makePage(), 'Please agree to the privacy policy to continue.')]) {
      expect(consentShownIn(html)).toEqual({ text: statement.text, href: statement.privacyHref });
    }
    expect(statement.privacyHref).toBe('/privacy');
  });

  it('is what the editor’s live preview draws too', () => {
    const { container } = render(<LandingPage page={makePage()} state="form" preview />);
    expect(consentShownIn(container.innerHTML)).toEqual({ text: consentStatement(makePage())!.text, href: '/privacy' });
  });

  it('names the creator and links their own policy when they gave one, safely', () => {
    const own = makePage({ privacyPolicyUrl: 'https://ann.example/privacy?x=1&y=2', controllerName: 'Ann <Adams> & Co' });
    const statement = consentStatement(own)!;
    expect(statement.text).toBe('I agree to the privacy policy of Ann <Adams> & Co');
    expect(consentShownIn(served(own))).toEqual({ text: statement.text, href: 'https://ann.example/privacy?x=1&y=2' });
    const link = new DOMParser().parseFromString(served(own), 'text/html').querySelector('label.plk-consent a')!;
    expect([link.getAttribute('target'), link.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer nofollow']);
    expect(served(own)).not.toContain('<Adams>');
    // Without a name: their link, the usual words; without a URL: Plink's text and link, whatever the name.
    expect(consentStatement(makePage({ privacyPolicyUrl: 'https://ann.example/p' }))).toMatchObject({ text: 'I agree to the privacy policy', privacyHref: 'https://ann.example/p' });
    expect(consentStatement(makePage({ controllerName: 'Ann' }))).toMatchObject({ text: 'I agree to the privacy policy', privacyHref: '/privacy' });
    // A URL that is not http(s) is never linked (stored pages are checked on save; this is the renderer's own guard).
    expect(consentStatement(makePage({ privacyPolicyUrl: 'javascript:alert(1)', controllerName: 'Ann' }))).toMatchObject({ privacyHref: '/privacy' });
  });

  it('is null, and no checkbox is drawn, when the page hides the privacy checkbox', () => {
    const hidden = makePage({ hidePrivacyPolicyCheckbox: true });
    expect(consentStatement(hidden)).toBeNull();
    expect(consentShownIn(served(hidden))).toBeNull();
  });
});
