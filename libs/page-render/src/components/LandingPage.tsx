import type { CSSProperties, FormEvent } from 'react';
import type { PublicPageDto } from '@plink/contracts';
import { consentStatement } from './consent';
import { contrastTextColor, cssUrl, fontStack, safeColor, safeUrl, thankYouButton } from './theme';

/**
 * The public landing page a visitor sees at `/{slug}`, drawn by the server (renderToString,
 * no React on the visitor's page) and by the editor's live preview. Deterministic: no ids, clock or
 * randomness, so both draw the same markup. Browser-safe: no Node APIs.
 *
 * Class names start with `plk-` (see LANDING_PAGE_CSS); the server's inline script relies on
 * `.plk-form`, `.plk-body`, `.plk-btn` and `.plk-error`.
 */

export type LandingPageState = 'form' | 'thank-you';

export interface LandingPageProps {
  page: PublicPageDto;
  state: LandingPageState;
  /** Shown under the button (e.g. the answer of a failed no-JavaScript post). */
  error?: string | null;
  /** 'Submitting...' on the button, every input disabled. */
  submitting?: boolean;
  /**
   * The editor's live preview: the form never submits, links open in a new tab, the background
   * covers the preview box instead of the viewport, and no <main> landmark is drawn.
   */
  preview?: boolean;
  /** Where the form posts without JavaScript (the page's own path); omitted: the current URL. */
  formAction?: string;
  /** Prefills the e-mail field (a no-JavaScript post re-drawn with an error). */
  submittedEmail?: string;
  /** The server's signed form token, sent back as the hidden field `formToken` (the served page only). */
  formToken?: string;
}

/** Texts the component and the server's inline script share. */
export const LandingTexts = {
  emailPlaceholder: 'Enter your email',
  emailLabel: 'Email address',
  submitting: 'Submitting...',
  redirecting: 'Redirecting you shortly...',
  /** The thank-you state of Plink's example pages, which store nothing. */
  exampleNote: 'This is an example page made by Plink: your address was not stored and nothing will be sent.',
  madeWith: 'Made with Plink',
} as const;

export const CARD_MAX_WIDTH_PX = 420;
export const MAIN_IMAGE_HEIGHT_PX = 260;
const CARD_RADIUS_PX = 12;
const CARD_SHADOW = '0 10px 30px rgba(0,0,0,.12),0 2px 6px rgba(0,0,0,.08)';

/** Off-screen rather than display:none, so form-filling bots still see and fill it. */
const HONEYPOT_STYLE: CSSProperties = { position: 'absolute', left: -10000, top: 'auto', width: 1, height: 1, overflow: 'hidden' };

const FOOTER_LINKS: ReadonlyArray<readonly [href: string, label: string]> = [
  ['/terms', 'Terms'],
  ['/privacy', 'Privacy'],
  ['/', 'Home'],
  ['/dashboard', 'Dashboard'],
];

const weight = (bold: boolean) => (bold ? 700 : 400);
const preventSubmit = (e: FormEvent<HTMLFormElement>) => e.preventDefault();

function buttonStyle(page: PublicPageDto): CSSProperties {
  const color = safeColor(page.buttonColor, '#000000');
  return { backgroundColor: color, color: contrastTextColor(color) };
}

function newTab(preview: boolean) {
  return preview ? { target: '_blank', rel: 'noopener noreferrer' } : {};
}

export function LandingPage({
  page,
  state,
  error = null,
  submitting = false,
  preview = false,
  formAction,
  submittedEmail,
  formToken,
}: LandingPageProps) {
  const backgroundImage = safeUrl(page.backgroundImage);
  const image = safeUrl(page.imageUrl);
  const center = page.textAlignment === 'center';
  const Card = preview ? 'div' : 'main';
  const consent = consentStatement(page);
  const cardClass = `plk-card${page.useSharpCorners ? ' plk-sharp' : ''}${center ? ' plk-center' : ''}`;

  return (
    <div
      className={preview ? 'plk-root plk-preview' : 'plk-root'}
      data-plk-state={state}
      // The description's font is the page's body font: the form, its messages and the footer use it too.
      style={{ fontFamily: fontStack(page.descriptionFont) }}
    >
      <div
        className="plk-bg"
        aria-hidden="true"
        style={{
          backgroundColor: safeColor(page.backgroundColor, '#ffffff'),
          backgroundImage: backgroundImage ? cssUrl(backgroundImage) : undefined,
        }}
      />
      <Card
        className={cardClass}
        style={{
          maxWidth: CARD_MAX_WIDTH_PX,
          borderRadius: page.useSharpCorners ? 0 : CARD_RADIUS_PX,
          boxShadow: page.hideDropShadow ? 'none' : CARD_SHADOW,
          textAlign: center ? 'center' : 'left',
        }}
      >
        {image && <img className="plk-img" src={image} alt="" style={{ height: MAIN_IMAGE_HEIGHT_PX, objectFit: 'cover' }} />}
        <div className="plk-body">
          {state === 'thank-you' ? (
            <ThankYouMessage page={page} preview={preview} />
          ) : (
            <>
              {page.title.trim() !== '' && (
                <h1 className="plk-title" style={{ fontFamily: fontStack(page.titleFont), fontWeight: weight(page.titleBold) }}>
                  {page.title}
                </h1>
              )}
              {page.author && (
                <p className="plk-author" style={{ fontFamily: fontStack(page.authorFont), fontWeight: weight(page.authorBold) }}>
                  {page.author}
                </p>
              )}
              {page.subtext && (
                <div
                  className="plk-subtext"
                  style={{ fontFamily: fontStack(page.descriptionFont), fontWeight: weight(page.descriptionBold) }}
                  // Sanitised by the pages service on save (the rich-text toolbar's tags only).
                  dangerouslySetInnerHTML={{ __html: page.subtext }}
                />
              )}
              <form
                className="plk-form"
                method="post"
                action={preview ? undefined : formAction}
                encType="application/x-www-form-urlencoded"
                onSubmit={preview ? preventSubmit : undefined}
                aria-busy={submitting || undefined}
              >
                <input
                  className="plk-input"
                  type="email"
                  name="email"
                  required
                  maxLength={254}
                  autoComplete="email"
                  placeholder={LandingTexts.emailPlaceholder}
                  aria-label={LandingTexts.emailLabel}
                  defaultValue={submittedEmail}
                  disabled={submitting}
                />
                {consent && (
                  <label className="plk-consent">
                    <input type="checkbox" name="consent" value="on" required disabled={submitting} />
                    <span>
                      {consent.before}
                      <a href={consent.privacyHref} target="_blank" rel={consent.external ? 'noopener noreferrer nofollow' : 'noopener noreferrer'}>
                        {consent.linkText}
                      </a>
                    </span>
                  </label>
                )}
                {formToken !== undefined && <input type="hidden" name="formToken" value={formToken} />}
                <div style={HONEYPOT_STYLE} aria-hidden="true">
                  <input type="text" name="website" tabIndex={-1} autoComplete="off" aria-hidden="true" disabled={submitting} />
                </div>
                <button className="plk-btn" type="submit" style={buttonStyle(page)} disabled={submitting}>
                  {submitting ? LandingTexts.submitting : page.buttonText}
                </button>
                {error && (
                  <p className="plk-error" role="alert">
                    {error}
                  </p>
                )}
              </form>
            </>
          )}
        </div>
      </Card>
      {/* Removing the branding (Pro) removes all of Plink from the page: its links as well as the badge. The
          consent checkbox keeps its privacy link, the statement the visitor agrees to. */}
      {page.showBranding && (
        <footer className="plk-footer">
          <nav className="plk-links" aria-label="Plink">
            {FOOTER_LINKS.map(([href, label]) => (
              <a key={href} href={href} {...newTab(preview)}>
                {label}
              </a>
            ))}
          </nav>
          <a className="plk-badge" href="/" {...newTab(preview)}>
            {LandingTexts.madeWith}
          </a>
        </footer>
      )}
    </div>
  );
}

/**
 * The thank-you state inside the card: headline, subtext, the button only when both its text and
 * URL are set, and 'Redirecting you shortly...' when the page redirects. The server also renders it
 * into a <template> that its inline script swaps in after a successful submit.
 */
export function ThankYouMessage({ page, preview = false }: { page: PublicPageDto; preview?: boolean }) {
  const button = thankYouButton(page);
  const style = buttonStyle(page);
  return (
    <div className="plk-thanks" role="status">
      <div className="plk-check" style={style} aria-hidden="true">
        ✓
      </div>
      <h1 className="plk-thanks-title" tabIndex={-1} style={{ fontFamily: fontStack(page.titleFont), fontWeight: weight(page.titleBold) }}>
        {page.thankYouHeadline}
      </h1>
      <p className="plk-thanks-text" style={{ fontFamily: fontStack(page.descriptionFont), fontWeight: weight(page.descriptionBold) }}>
        {page.thankYouSubtext}
      </p>
      {button && (
        <a className="plk-btn" href={button.url} style={style} {...newTab(preview)}>
          {button.text}
        </a>
      )}
      {safeUrl(page.redirectUrl) && <p className="plk-redirect">{LandingTexts.redirecting}</p>}
      {page.isExample && <p className="plk-example-note">{LandingTexts.exampleNote}</p>}
    </div>
  );
}
