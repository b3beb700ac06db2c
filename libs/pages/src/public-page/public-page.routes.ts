import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isFileName, mayBePageSlug } from '@plink/contracts';
import { APP_CONFIG, SpaShell, apiNotFound, appSecurityHeaders, getLogger, toApiError, type AppConfig } from '@plink/platform';
import { ViewCounter } from '../views/view-counter';
import { RenderedPages, type PageState } from './rendered-pages';

const NOT_BUILT = 'The web app is not built yet: run `npm run build`.';
const HTML = 'text/html; charset=utf-8';

type Params = { slug?: string; username?: string };

/**
 * The visitor's landing page, rendered on the server (SPEC §2 route table): `GET /{slug}`, `/p/{slug}` and
 * `/p/{username}/{slug}` (the last only when the page is that user's). `/{slug}` shares its paths with the
 * SPA (`/dashboard`, `/auth`, …): a reserved first segment, or one that cannot be a slug, answers the SPA.
 *
 * This is the product's hot path, so these are plain Fastify routes (still behind the platform's HTTP edge
 * hooks: correlation id, security headers, access log) rather than Nest controller routes: Nest's router
 * costs a third of the throughput here (measured: ~7.9k vs ~11.8k req/s on one core). A cached page costs
 * no database query, no render and no Redis call (views are counted in memory).
 */
@Injectable()
export class PublicPageRoutes implements OnModuleInit {
  /** The SPA's documents (shell, prerendered screens), each encoded once. */
  private readonly encoded = new Map<string, Buffer>();

  /** The app's security headers (CSP, no framing…), for the SPA shell these routes answer on app paths. */
  private readonly spaHeaders: Record<string, string>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: RenderedPages,
    private readonly views: ViewCounter,
    @Optional() private readonly spa?: SpaShell,
  ) {
    this.spaHeaders = { ...appSecurityHeaders(config), 'cache-control': 'no-cache' };
  }

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.get !== 'function') return;
    // `/` is the SPA's home: without its own route it would reach `/:slug` with an empty slug.
    // Visitor traffic: the access log keeps only failures and slow answers (see installHttpEdge).
    const quiet = { config: { quietAccessLog: true } };
    fastify.get('/', quiet, (request, reply) => this.sendSpa(request, reply));
    fastify.get<{ Params: Params }>('/:slug', quiet, (request, reply) => this.bySlug(request, reply));
    fastify.get<{ Params: Params }>('/p/:slug', quiet, (request, reply) => this.safely(reply, this.sendPage(request, reply, request.params.slug ?? '')));
    fastify.get<{ Params: Params }>('/p/:username/:slug', quiet, (request, reply) =>
      this.safely(reply, this.sendPage(request, reply, request.params.slug ?? '', request.params.username ?? '')),
    );
  }

  private bySlug(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    const slug = request.params.slug ?? '';
    if (slug.toLowerCase() === 'api' || isFileName(slug)) return reply.status(404).send(apiNotFound());
    if (!mayBePageSlug(slug)) return this.sendSpa(request, reply);
    return this.safely(reply, this.sendPage(request, reply, slug));
  }

  private async sendPage(request: FastifyRequest, reply: FastifyReply, slug: string, username?: string): Promise<FastifyReply> {
    const state: PageState = (request.query as Record<string, unknown> | undefined)?.submitted === '1' ? 'thank-you' : 'form';
    const page = mayBePageSlug(slug) ? await this.pages.render(slug, state) : null;
    if (!page || (username !== undefined && page.ownerUsername.toLowerCase() !== username.toLowerCase())) {
      return reply.status(404).headers(this.pages.notFoundHeaders).type(HTML).send(this.pages.notFoundDocument());
    }
    // Paused after its owner's downgrade: 'This page is paused', as a 404 (no view counted).
    if (page.paused) return reply.status(404).headers(page.headers).type(HTML).send(page.html);
    // One view per visitor load of the form (not the thank-you answer, not a HEAD probe, not a crawler).
    if (state === 'form' && request.method === 'GET') this.views.count(page.pageId, request.headers['user-agent']);
    // no-cache (in the page's headers): browsers and proxies revalidate, so an edit shows on the next load.
    // The page's own policy (a sandbox when it carries its owner's code on the app's host) was built with it.
    return reply.status(200).headers(page.headers).type(HTML).send(page.html);
  }

  /** The SPA's document for this path: the home, terms and privacy pages come prerendered to visitors. */
  private sendSpa(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const html = this.spa?.htmlFor(request.url.split('?')[0], request.headers.cookie);
    if (!html) return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    let bytes = this.encoded.get(html);
    if (!bytes) this.encoded.set(html, (bytes = Buffer.from(html, 'utf8')));
    // Vary: the same path answers a prerendered page or the bare shell depending on the session cookie.
    return reply.headers(this.spaHeaders).header('vary', 'Cookie').type(HTML).send(bytes);
  }

  /** Outside Nest's exception filters: an unexpected failure still answers like the API does. */
  private async safely(reply: FastifyReply, answer: Promise<FastifyReply>): Promise<FastifyReply> {
    try {
      return await answer;
    } catch (err) {
      const { status, message } = toApiError(err);
      if (status >= 500) getLogger().error({ err }, 'public page failed');
      return reply.status(status).send({ message });
    }
  }
}
