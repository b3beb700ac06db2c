import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeEndpoint, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appScreenOf, isFileName, mayBePageSlug } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, PrecompressedDocument, SpaShell, apiNotFound, appSecurityHeaders, mayAnswerLandingPage, redirectToLandingPagesHost, sendPrecompressed } from '@plink/http';
import { AnalyticsCounter, visitOf } from '../analytics/analytics-counter';
import { ViewCounter } from '../views/view-counter';
import { RenderedPages, pageStateOf } from './rendered-pages';

const NOT_BUILT = 'The web app is not built yet: run `npm run build`.';
const HTML = 'text/html; charset=utf-8';

/**
 * Visitor traffic: the access log keeps only failures and slow answers (see installHttpEdge), and the documents
 * go compressed once, not on every answer (`compress: false` keeps the on-the-fly compression away).
 */
const VISITOR_PAGE = { quietAccessLog: true, compress: false } as const;

type PageRequest = FastifyRequest<{ Params: { slug?: string; username?: string } }>;

/** The API reference's words for the page (HTML) these routes answer, and their 404 pages. */
const PAGE_ANSWER = { status: 200, description: 'The page', contentType: 'text/html' };
const NOT_FOUND_PAGE = 'the "Page not found" page (HTML)';
const SLUG_PARAM = { name: 'slug', schema: { type: 'string' }, description: "The page's address, any case" } as const;

/**
 * The visitor's landing page, rendered on the server at three addresses: `GET /{slug}`, `/p/{slug}` and
 * `/p/{username}/{slug}` (the last only when the page is that user's). `/{slug}` shares its paths with the
 * SPA (`/dashboard`, `/auth`, …): a reserved first segment, or one that cannot be a slug, answers the SPA.
 * HEAD is answered by the same handlers (Fastify adds it to every GET route), without counting a view.
 *
 * The product's hot path: a cached page costs no database query, no render and no Redis call (views are
 * counted in memory). The handlers read the request and write the reply themselves (`@Req`, `@Res`), so
 * Nest adds no parameter pipes and no serialisation here; unexpected failures reach the API's exception
 * filter like any other call's.
 */
@ApiTags('Visitors')
@Controller()
export class PublicPageController {
  /** The SPA's documents (shell, prerendered screens), each encoded and compressed once. */
  private readonly encoded = new Map<string, PrecompressedDocument>();

  /** The app's security headers (CSP, no framing…), for the SPA shell these routes answer on app paths. */
  private readonly spaHeaders: Record<string, string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pages: RenderedPages,
    private readonly views: ViewCounter,
    private readonly analytics: AnalyticsCounter,
    @Optional() private readonly spa?: SpaShell,
  ) {
    this.spaHeaders = { ...appSecurityHeaders(config), 'cache-control': 'no-cache' };
  }

  /** `/` is the SPA's home: without its own route it would reach `/:slug` with an empty slug. */
  @Get()
  @RouteConfig(VISITOR_PAGE)
  @ApiExcludeEndpoint() // the web app's home screen, not a call
  home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return this.sendSpa(request, reply);
  }

  // Each page route keeps the operationId clients have known it by since it was first published.
  @ApiDoc({
    operationId: 'get_slug',
    summary: 'A landing page',
    description:
      "The page, rendered on the server (no JavaScript needed); `?submitted=1` shows its thank-you state, `?submitted=confirm` the thank-you that asks to confirm by e-mail (a sign-up kept pending while the page is under attack). Counts one view (not for a crawler or a HEAD probe). When `PUBLIC_ORIGIN` is another host, the app's host redirects here to it. A path that is one of the app's own screens (`/auth`, `/dashboard`, …) answers the app instead.",
    ok: PAGE_ANSWER,
    errors: { 404: [NOT_FOUND_PAGE, 'the "This page is paused" page (HTML)'] },
  })
  // The reference lists parameters bottom-up: the decorator nearest the route first.
  @ApiQuery({
    name: 'submitted',
    required: false,
    schema: { type: 'string', enum: ['1', 'confirm'] },
    description: 'Show the thank-you state (`confirm`: asking to confirm by e-mail)',
  })
  @ApiParam(SLUG_PARAM)
  @Get(':slug')
  @RouteConfig(VISITOR_PAGE)
  bySlug(@Req() request: PageRequest, @Res() reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    const slug = request.params.slug ?? '';
    if (slug.toLowerCase() === 'api' || isFileName(slug)) return reply.status(404).send(apiNotFound());
    if (!mayBePageSlug(slug)) return this.sendSpa(request, reply);
    return this.sendPage(request, reply, slug);
  }

  @ApiDoc({ operationId: 'get_p_slug', summary: 'A landing page (long form)', ok: PAGE_ANSWER, errors: { 404: NOT_FOUND_PAGE } })
  @ApiParam(SLUG_PARAM)
  @Get('p/:slug')
  @RouteConfig(VISITOR_PAGE)
  byShortPath(@Req() request: PageRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.sendPage(request, reply, request.params.slug ?? '');
  }

  @ApiDoc({
    operationId: 'get_p_username_slug',
    summary: "A landing page under its owner's username",
    description: "Found only when the page is that user's.",
    ok: PAGE_ANSWER,
    errors: { 404: NOT_FOUND_PAGE },
  })
  @ApiParam(SLUG_PARAM)
  @ApiParam({ name: 'username', schema: { type: 'string' } })
  @Get('p/:username/:slug')
  @RouteConfig(VISITOR_PAGE)
  byUserPath(@Req() request: PageRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.sendPage(request, reply, request.params.slug ?? '', request.params.username ?? '');
  }

  /**
   * Any other address under `/p/` (`/p/`, `/p//x`, `/p/user/`, deeper paths): a visitor who mistyped a link
   * gets the same "Page Not Found" page as for an unknown slug, not the API's JSON answer.
   */
  @Get('p/*')
  @RouteConfig(VISITOR_PAGE)
  @ApiExcludeEndpoint()
  malformed(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.sendPage(request, reply, '');
  }

  private async sendPage(request: FastifyRequest, reply: FastifyReply, slug: string, username?: string): Promise<FastifyReply> {
    // The host split already sends pages asked on the app's host to their own; asked again here, so that a page
    // (and its owner's code) is never answered with the app's origin, whatever the router made of the address.
    if (!mayAnswerLandingPage(request, this.config)) return redirectToLandingPagesHost(request, reply, this.config);
    const state = pageStateOf(request.url);
    const page = mayBePageSlug(slug) ? await this.pages.render(slug, state) : null;
    if (!page || (username !== undefined && page.ownerUsername.toLowerCase() !== username.toLowerCase())) {
      return sendPrecompressed(request, reply.status(404).headers(this.pages.notFoundHeaders).type(HTML), this.pages.notFoundDocument());
    }
    // Paused after its owner's downgrade: 'This page is paused', as a 404 (no view counted).
    if (page.paused) return sendPrecompressed(request, reply.status(404).headers(page.headers).type(HTML), page.html);
    // One view per visitor load of the form (not the thank-you answer, not a HEAD probe, not a crawler).
    if (state === 'form' && request.method === 'GET') {
      this.views.count(page.pageId, request.headers['user-agent']);
      this.analytics.count(page.pageId, visitOf(request), request.hostname);
    }
    // no-cache (in the page's headers): browsers and proxies revalidate, so an edit shows on the next load.
    // The page's own policy (a sandbox when it carries its owner's code on the app's host) was built with it.
    return sendPrecompressed(request, reply.status(200).headers(page.headers).type(HTML), page.html);
  }

  /** The SPA's document for this path: the home, terms and privacy pages come prerendered to visitors. */
  private sendSpa(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0];
    const html = this.spa?.htmlFor(path, request.headers.cookie);
    if (!html) return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    let document = this.encoded.get(html);
    if (!document) this.encoded.set(html, (document = PrecompressedDocument.of(html)));
    // Vary: the same path answers a prerendered page or the bare shell depending on the session cookie. A
    // reserved word that is no screen of the app (/admin) is a 404: the app draws "Page Not Found".
    return sendPrecompressed(request, reply.status(appScreenOf(path) ? 200 : 404).headers(this.spaHeaders).type(HTML), document, 'Cookie');
  }
}
