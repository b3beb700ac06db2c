import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { FORM_TOKEN_MIN_AGE_MS, FormTokens, type FormTokenCheck } from '@plink/crypto';

/**
 * A submission's form token has expired (issued over 2 h ago, a tab left open): not a bot's refusal (only a page
 * served by this server carries a genuine token), so it is answered with a fresh token for the page (409) —
 * the form again for a no-JavaScript post, a retry for the page's script. The fresh token counts from 2 s
 * before now: this visitor has had the page for hours, so pressing Subscribe again at once must not be taken
 * for a script's haste (a script holding an expired token gains nothing more than fetching the page again).
 */
export class ExpiredFormToken extends Error {
  constructor(readonly freshToken: string) {
    super('form token expired');
  }
}

/** The form tokens of the landing pages (signed under a key derived from SESSION_SECRET; see FormTokens). */
@Injectable()
export class FormTokenVerifier {
  private readonly tokens: FormTokens;
  /** The clock the checks read (tests move it). */
  now: () => number = Date.now;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.tokens = new FormTokens(config.sessionSecret);
  }

  check(token: unknown, pageId: number): FormTokenCheck {
    return this.tokens.check(token, pageId, this.now());
  }

  /** The answer to an expired token: a fresh one, good at once (see {@link ExpiredFormToken}). */
  renewExpired(pageId: number): string {
    return this.tokens.issue(pageId, this.now() - FORM_TOKEN_MIN_AGE_MS);
  }

  /**
   * The token of a form re-drawn after a refused no-JavaScript post: the visitor's own while it is good (its
   * clock started when the page was served), a renewed one for an expired token, else one issued now.
   */
  forRedraw(submitted: unknown, pageId: number): string {
    const check = this.check(submitted, pageId);
    if (check === 'ok' || check === 'early') return submitted as string;
    return check === 'expired' ? this.renewExpired(pageId) : this.tokens.issue(pageId, this.now());
  }
}
