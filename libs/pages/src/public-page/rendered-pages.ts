import { Inject, Injectable } from '@nestjs/common';
import {
  NOT_FOUND_POLICY,
  creatorCodeIsolation,
  renderNotFoundDocument,
  renderPausedDocument,
  renderPublicPage,
  type CreatorCodeIsolation,
} from '@plink/page-render';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { shownThankYouSubtext } from '@plink/contracts';
import { FormTokens } from '@plink/crypto';
import { PrecompressedDocument, publicPageBaseHeaders } from '@plink/http';
import { TtlCache } from '@plink/redis';
import { PageChanges } from '../cache/page-changes';
import { PagesDirectory } from '../directory/pages-directory';

/**
 * `confirm` is the thank-you answer of a sign-up kept pending for its e-mail confirmation on a page that does
 * not always ask for one (while it is under attack, or from its plain form pasted on another site): the page's
 * thank-you with the confirm-by-e-mail subtext.
 */
export type PageState = 'form' | 'thank-you' | 'confirm';

/**
 * The state a visitor's address asks for: `?submitted=1` (once) is the thank-you answer, `?submitted=confirm`
 * the thank-you answer asking to confirm by e-mail, anything else the form.
 */
export function pageStateOf(url: string): PageState {
  const query = url.indexOf('?');
  if (query === -1) return 'form';
  const submitted = new URLSearchParams(url.slice(query + 1)).getAll('submitted');
  if (submitted.length !== 1) return 'form';
  return submitted[0] === '1' ? 'thank-you' : submitted[0] === 'confirm' ? 'confirm' : 'form';
}

/** The cache key of a page in a state (slugs match in any case). */
const keyOf = (slug: string, state: PageState) => `${slug.toLowerCase()}|${state}`;

/** A rendered public page, with what the request path needs to know about it. */
export interface RenderedPage {
  pageId: number;
  ownerUsername: string;
  /**
   * The page is paused (its owner's downgrade): `html` is the 'This page is paused' notice, to send with
   * status 404 and no view counted.
   */
  paused: boolean;
  /**
   * The document, UTF-8 encoded and compressed once (per coding, when first asked for): sending a cached page
   * costs no string encoding and no compression per request (the form's token is renewed every
   * {@link FORM_TOKEN_INTERVAL_MS}, and the document with it).
   */
  html: PrecompressedDocument;
  /** The form state's document with a slot for the form token, and when the token it carries now was issued. */
  form?: { template: string; issuedAt: number };
  /** The headers the page is sent with (its Content-Security-Policy, HSTS over https), built once with the page. */
  headers: Record<string, string>;
}

/** Same bound as the directory's: page changes drop entries at once; this bounds owner changes. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;
const STATES: PageState[] = ['form', 'thank-you', 'confirm'];

/**
 * How often a cached page's form token is renewed (per-interval tokens): every visitor within one interval gets
 * the same token, issued at its start, so a cached page still costs no signing and no compression per request —
 * one signature and one compression per page and coding each interval. At most this old when served, a token is
 * checked 2 s after its issue: a submission sent sooner than 2 s minus this after the page was fetched is refused,
 * later ones may pass (see docs/security.md).
 */
export const FORM_TOKEN_INTERVAL_MS = 1_000;
/** Where the token goes in a rendered form (the hidden field's value). */
const TOKEN_SLOT = '__plink_form_token__';

/**
 * The server-rendered HTML of public pages, per page and state, kept in memory: a cached page costs no
 * database query and no render. Dropped on every change of the page, in every replica ({@link PageChanges}).
 */
@Injectable()
export class RenderedPages {
  private readonly cache = new TtlCache<RenderedPage>(MAX_ENTRIES);
  private readonly tokens: FormTokens;
  /** Renders under way, by cache key. */
  private readonly rendering = new Map<string, Promise<RenderedPage | null>>();
  private notFound?: PrecompressedDocument;
  private pausedNotice?: PrecompressedDocument;
  /** How pages with their owner's code are kept from the app: a sandbox, unless they have a host of their own. */
  private readonly isolation: CreatorCodeIsolation;
  private readonly baseHeaders: Record<string, string>;
  /** The "Page Not Found" document's headers. */
  readonly notFoundHeaders: Record<string, string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: PagesDirectory,
    private readonly changes: PageChanges,
  ) {
    this.isolation = creatorCodeIsolation(config);
    this.tokens = new FormTokens(config.sessionSecret);
    this.baseHeaders = { 'cache-control': 'no-cache', ...publicPageBaseHeaders(config) };
    this.notFoundHeaders = { ...this.baseHeaders, 'content-security-policy': NOT_FOUND_POLICY };
    // A change drops the page, and a render under way is not shared any more (it may show the page as it was).
    changes.onChange((slug) => {
      if (slug === null) {
        this.cache.clear();
        this.rendering.clear();
      } else {
        for (const state of STATES) {
          this.cache.delete(keyOf(slug, state));
          this.rendering.delete(keyOf(slug, state));
        }
      }
    });
  }

  /** The page's document in that state if it is in memory already (no lookup, no render), else undefined. */
  cached(slug: string, state: PageState): RenderedPage | undefined {
    const page = this.cache.get(keyOf(slug, state));
    return page && this.withFreshToken(page);
  }

  /** The page with a form token at most {@link FORM_TOKEN_INTERVAL_MS} old (renewed in place when older). */
  private withFreshToken(page: RenderedPage): RenderedPage {
    const form = page.form;
    if (!form) return page;
    const now = Date.now();
    if (now - form.issuedAt < FORM_TOKEN_INTERVAL_MS && now >= form.issuedAt) return page;
    form.issuedAt = now;
    page.html = PrecompressedDocument.of(form.template.replace(TOKEN_SLOT, this.tokens.issue(page.pageId, now)));
    return page;
  }

  /**
   * The page's document in that state, or null when no page has this slug. Visits that miss the cache together
   * (a popular page when its entry expires, every minute) share one render: rendered each, 200 concurrent
   * visits had held the event loop for over 100 ms.
   */
  render(slug: string, state: PageState): Promise<RenderedPage | null> {
    const key = keyOf(slug, state);
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(this.withFreshToken(cached));
    let rendering = this.rendering.get(key);
    if (!rendering) {
      const started: Promise<RenderedPage | null> = this.renderNow(slug, state, key).finally(() => {
        if (this.rendering.get(key) === started) this.rendering.delete(key);
      });
      this.rendering.set(key, (rendering = started));
    }
    return rendering.then((page) => page && this.withFreshToken(page));
  }

  private async renderNow(slug: string, state: PageState, key: string): Promise<RenderedPage | null> {
    const generation = this.cache.current();
    const live = this.changes.live();
    const page = await this.directory.findForVisitor(slug);
    if (!page) return null;
    if (page.paused) {
      // Nothing of the page itself: not its title, not its creator.
      this.pausedNotice ??= PrecompressedDocument.of(renderPausedDocument(this.config.appOrigin));
      const notice: RenderedPage = { pageId: page.id, ownerUsername: page.ownerUsername, paused: true, html: this.pausedNotice, headers: this.notFoundHeaders };
      if (live) this.cache.setIfCurrent(generation, key, notice, TTL_MS);
      return notice;
    }
    // Canonical and sharing URLs name the landing pages' own host.
    // The confirm state is the thank-you state with the double opt-in's words (unless the creator wrote their own).
    const shown =
      state === 'confirm' ? { ...page.public, thankYouSubtext: shownThankYouSubtext({ doubleOptIn: true, thankYouSubtext: page.public.thankYouSubtext }) } : page.public;
    const document = renderPublicPage(shown, {
      state: state === 'confirm' ? 'thank-you' : state,
      canonicalUrl: `${this.config.publicOrigin}/${page.slug}`,
      appOrigin: this.config.publicOrigin,
      isolation: this.isolation,
      formToken: state === 'form' ? TOKEN_SLOT : undefined,
    });
    const issuedAt = Date.now();
    const rendered: RenderedPage = {
      pageId: page.id,
      ownerUsername: page.ownerUsername,
      paused: false,
      html: PrecompressedDocument.of(state === 'form' ? document.html.replace(TOKEN_SLOT, this.tokens.issue(page.id, issuedAt)) : document.html),
      form: state === 'form' ? { template: document.html, issuedAt } : undefined,
      headers: document.contentSecurityPolicy
        ? { ...this.baseHeaders, 'content-security-policy': document.contentSecurityPolicy }
        : this.baseHeaders,
    };
    if (live) this.cache.setIfCurrent(generation, key, rendered, TTL_MS);
    return rendered;
  }

  /** The "Page Not Found" document (sent with status 404). */
  notFoundDocument(): PrecompressedDocument {
    this.notFound ??= PrecompressedDocument.of(renderNotFoundDocument(this.config.appOrigin));
    return this.notFound;
  }
}
