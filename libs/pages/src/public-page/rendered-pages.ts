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
import { PrecompressedDocument, publicPageBaseHeaders } from '@plink/http';
import { TtlCache } from '@plink/redis';
import { PageChanges } from '../cache/page-changes';
import { PagesDirectory } from '../directory/pages-directory';

export type PageState = 'form' | 'thank-you';

/** The state a visitor's address asks for: `?submitted=1` (once) is the thank-you answer, anything else the form. */
export function pageStateOf(url: string): PageState {
  const query = url.indexOf('?');
  if (query === -1) return 'form';
  const submitted = new URLSearchParams(url.slice(query + 1)).getAll('submitted');
  return submitted.length === 1 && submitted[0] === '1' ? 'thank-you' : 'form';
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
   * costs no string encoding and no compression per request.
   */
  html: PrecompressedDocument;
  /** The headers the page is sent with (its Content-Security-Policy, HSTS over https), built once with the page. */
  headers: Record<string, string>;
}

/** Same bound as the directory's: page changes drop entries at once; this bounds owner changes. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;
const STATES: PageState[] = ['form', 'thank-you'];

/**
 * The server-rendered HTML of public pages, per page and state, kept in memory: a cached page costs no
 * database query and no render. Dropped on every change of the page, in every replica ({@link PageChanges}).
 */
@Injectable()
export class RenderedPages {
  private readonly cache = new TtlCache<RenderedPage>(MAX_ENTRIES);
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
    return this.cache.get(keyOf(slug, state));
  }

  /**
   * The page's document in that state, or null when no page has this slug. Visits that miss the cache together
   * (a popular page when its entry expires, every minute) share one render: rendered each, 200 concurrent
   * visits had held the event loop for over 100 ms.
   */
  render(slug: string, state: PageState): Promise<RenderedPage | null> {
    const key = keyOf(slug, state);
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(cached);
    let rendering = this.rendering.get(key);
    if (!rendering) {
      const started: Promise<RenderedPage | null> = this.renderNow(slug, state, key).finally(() => {
        if (this.rendering.get(key) === started) this.rendering.delete(key);
      });
      this.rendering.set(key, (rendering = started));
    }
    return rendering;
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
    const document = renderPublicPage(page.public, {
      state,
      canonicalUrl: `${this.config.publicOrigin}/${page.slug}`,
      appOrigin: this.config.publicOrigin,
      isolation: this.isolation,
    });
    const rendered: RenderedPage = {
      pageId: page.id,
      ownerUsername: page.ownerUsername,
      paused: false,
      html: PrecompressedDocument.of(document.html),
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
