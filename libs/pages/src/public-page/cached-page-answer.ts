import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { EVERY_ANSWER_HEADERS, EarlyAnswers, chooseEncoding, landingPagesHost, requestIdOf } from '@plink/http';
import { httpRequestSeconds } from '@plink/observability';
import { AnalyticsCounter } from '../analytics/analytics-counter';
import { ViewCounter } from '../views/view-counter';
import { RenderedPages, pageStateOf } from './rendered-pages';

/** A slug as it may stand in the address, with nothing to decode (anything else goes the regular way). */
const PLAIN_SLUG = /^[A-Za-z0-9-]{1,60}$/;

/**
 * The landing page's fast path: a page already rendered and in memory ({@link RenderedPages}) is answered by the
 * HTTP server itself, before Fastify and Nest route the request — the same bytes and headers the
 * {@link PublicPageController} sent when it rendered it.
 *
 * Why a second path beside the controller: a cached page needs none of the router's per-request work (request
 * context, ORM context, cookies, CSRF, compression hooks, access log), which cost more than the answer itself.
 * Measured with `npm run bench` (page part, wrk, 2 cores): about 20,000 answers/s through the controller
 * against about 40,000 here, with bare node:http at about 50,000.
 *
 * Only the plain case is answered here: GET of `/{slug}` or `/p/{slug}` (an optional query, `?submitted=1` for
 * the thank-you state) on the landing pages' host, for a live page in memory. A first visit, HEAD, `/p/{user}/…`,
 * a paused page, an address to decode, a proxy's differing X-Forwarded-Host: all go to the controller,
 * which renders and caches the page for the next visit.
 */
@Injectable()
export class CachedPageAnswer implements OnModuleInit {
  /** The landing pages' host when it differs from the app's (pages answer only there), else undefined. */
  private readonly pageHost?: string;
  // The route labels the controller's answers get (Fastify's patterns of its routes).
  private readonly bySlug = httpRequestSeconds.labels('GET', '/:slug', '200');
  private readonly byShortPath = httpRequestSeconds.labels('GET', '/p/:slug', '200');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly early: EarlyAnswers,
    private readonly pages: RenderedPages,
    private readonly views: ViewCounter,
    private readonly analytics: AnalyticsCounter,
  ) {
    this.pageHost = landingPagesHost(config);
  }

  onModuleInit(): void {
    this.early.add((request, response) => this.answer(request, response));
  }

  /** Answers the request when it asks for a cached live page; false otherwise (nothing written). */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET') return false;
    const started = performance.now();
    const url = request.url ?? '';
    const short = url.startsWith('/p/');
    const query = url.indexOf('?');
    const slug = url.slice(short ? 3 : 1, query === -1 ? undefined : query);
    if (!PLAIN_SLUG.test(slug) || !this.onPageHost(request)) return false;
    const state = pageStateOf(url);
    const page = this.pages.cached(slug, state);
    if (!page || page.paused) return false;

    if (state === 'form') {
      this.views.count(page.pageId, request.headers['user-agent']);
      this.analytics.countRequest(page.pageId, request);
    }
    const chosen = chooseEncoding(page.html, request.headers['accept-encoding']);
    const headers: Record<string, string | number> = {
      'x-request-id': requestIdOf(request.headers['x-request-id']),
      ...page.headers,
      'content-type': 'text/html; charset=utf-8',
      ...EVERY_ANSWER_HEADERS,
      'content-length': chosen.body.length,
    };
    if (chosen.vary) headers.vary = chosen.vary;
    if (chosen.contentEncoding) headers['content-encoding'] = chosen.contentEncoding;
    response.writeHead(200, headers);
    response.end(chosen.body);
    (short ? this.byShortPath : this.bySlug).observe((performance.now() - started) / 1000);
    return true;
  }

  /** With a host of their own, pages answer only there (the router sends them there from the app's host). */
  private onPageHost(request: IncomingMessage): boolean {
    if (!this.pageHost) return true;
    const host = request.headers.host?.toLowerCase();
    const forwarded = request.headers['x-forwarded-host'];
    return host === this.pageHost && (forwarded === undefined || (typeof forwarded === 'string' && forwarded.toLowerCase() === host));
  }
}
