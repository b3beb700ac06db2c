import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { CommonMessages, mayBePageSlug } from '@plink/contracts';
import type { AppConfig } from '@plink/config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A visitor route: it sends its own security headers, not the app's (set by installSecurityHeaders). */
    visitorRoute?: boolean;
  }
}

/**
 * Routes that answer visitors (landing pages, their form posts, the submit call, fonts, uploads) and set
 * their own headers: precomputed strings, because they are the hot path, and because a landing page has its
 * own policy (see the page renderer), not the app's. `/` and `/:slug` also answer the SPA shell for app
 * paths (`/dashboard`): they send {@link appSecurityHeaders} themselves.
 */
// The tab icons too: a landing page that carries its owner's code is sandboxed (an opaque origin), so the icon
// it names is a cross-origin load, which helmet's Cross-Origin-Resource-Policy: same-origin would block.
const VISITOR_ROUTES = new Set([
  '/',
  '/:slug',
  '/p/:slug',
  '/p/:username/:slug',
  '/api/page/:slug/submit',
  '/fonts/:file',
  '/uploads/*',
  '/favicon.ico',
  '/favicon.svg',
  '/embed.js',
  '/embed/:file',
]);

/** The visitor's JSON submit call (`POST /api/page/{slug}/submit`), as the router names its route. */
const SUBMIT_ROUTE = '/api/page/:slug/submit';
/** The embed script's own calls (its page's form and token, its view report): any origin reads them. */
const EMBED_ROUTES = new Set(['/api/embed/:slug', '/api/embed/:slug/view']);

/**
 * The app's policy (SPA and API), as helmet options. Scripts: the built SPA's own files only (Vite emits no
 * inline script), never 'unsafe-inline'. Styles: 'unsafe-inline'. Mantine 9 injects <style data-mantine-styles>
 * elements (its classes, CSS variables, responsive style props), which could carry a nonce (getStyleNonce), but
 * its style props and components also write `style="…"` attributes (sizes, colours as CSS variables), and a
 * nonce or hash never covers an attribute; tiptap's editor adds its own <style> element too. Blocking those
 * would break the SPA's layout; CSS cannot run script, and script-src stays strict. Images: any URL, as a
 * creator's page may show images from anywhere (the rich text holds data: images). No framing at all.
 */
function helmetOptions(config: AppConfig): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ['*', 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only means something over https; over plain http a browser ignores it, and a local install must not pin it.
    strictTransportSecurity: config.appOrigin.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}

const appHeaderCache = new WeakMap<AppConfig, Record<string, string>>();

/**
 * The headers helmet sets for the app, computed once (helmet run against a recording response), for the
 * visitor routes that may answer the SPA shell.
 */
export function appSecurityHeaders(config: AppConfig): Record<string, string> {
  let headers = appHeaderCache.get(config);
  if (!headers) {
    const recorded: Record<string, string> = {};
    const res = {
      setHeader: (name: string, value: string | number | string[]) => {
        recorded[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      },
      removeHeader: (name: string) => {
        delete recorded[name.toLowerCase()];
      },
    };
    helmet(helmetOptions(config))({} as never, res as never, () => undefined);
    headers = recorded;
    appHeaderCache.set(config, headers);
  }
  return headers;
}

/** `Strict-Transport-Security` for landing pages, when their origin is https (else nothing). */
export function publicPageBaseHeaders(config: AppConfig): Record<string, string> {
  return config.publicOrigin.startsWith('https:') ? { 'strict-transport-security': 'max-age=31536000' } : {};
}

/** What a request is, for the two-host set-up: a landing page, something both hosts serve, or the app. */
export type PathKind = 'page' | 'shared' | 'app';

/**
 * Routes both hosts answer: what landing pages and the editor's preview load, the submit call and the double
 * opt-in confirm call, health probes.
 */
const SHARED_ROUTES = new Set([SUBMIT_ROUTE, ...EMBED_ROUTES, '/embed.js', '/embed/:file', '/api/confirm/:token', '/fonts/:file', '/uploads/*', '/favicon.ico']);
/**
 * Routes that only ever answer a landing page (or its form, or its "Page Not Found"), and the double opt-in
 * link's page (`/confirm/{token}`, e-mailed with PUBLIC_ORIGIN), which the landing pages' host answers.
 */
const PAGE_ROUTES = new Set(['/p/:slug', '/p/:username/:slug', '/p/*', '/confirm/:token']);

/**
 * Classifies a request by the route the router matched and the parameters it decoded, never by the raw
 * address: the router decodes percent-escapes (`/%6dy-page`, `/%70/my-page`) and drops duplicate slashes, so a
 * split judged on the raw string could take a landing page for an app path and serve a creator's code with
 * the app's origin. `/:slug` is shared with the SPA (`/dashboard`): it is a page when its decoded segment may
 * be a slug, as the page controller decides. An address no route matches is the app's (its 404).
 */
export function classifyRoute(route: string | undefined, params: unknown): PathKind {
  if (route === undefined) return 'app';
  if (SHARED_ROUTES.has(route) || route === '/health' || route.startsWith('/health/')) return 'shared';
  if (PAGE_ROUTES.has(route)) return 'page';
  if (route === '/:slug') {
    const slug = (params as { slug?: unknown } | undefined)?.slug;
    return typeof slug === 'string' && mayBePageSlug(slug) ? 'page' : 'app';
  }
  return 'app';
}

/**
 * The gateway's security headers and the two-host split:
 * - the app (SPA, API, static files) gets helmet's headers (CSP, no framing, HSTS over https, nosniff,
 *   Referrer-Policy…); visitor routes ({@link VISITOR_ROUTES}) skip helmet and send their own;
 * - every /api answer but the public submit call is `Cache-Control: no-store` (signed-in JSON must not be
 *   kept by a browser or proxy); a route may still set its own;
 * - the submit call answers a sandboxed landing page (origin `null`, see the page renderer) and the form
 *   embedded on any other site with CORS (its origin echoed, never credentials), so their scripts can read
 *   the answer; the embed's own calls (`/api/embed/…`) answer `*`. Every other /api call gives no CORS;
 * - when PUBLIC_ORIGIN differs from APP_ORIGIN, landing pages answer only on the public host (the app host
 *   redirects them there) and app paths only on the app host (the public host sends `/` and app pages to the
 *   app, and answers 404 to the API).
 *
 * Call before any route is registered (the route marks are set as routes are added).
 */
export async function installSecurityHeaders(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  fastify.addHook('onRoute', (route) => {
    if (VISITOR_ROUTES.has(route.url)) route.config = { ...(route.config ?? {}), visitorRoute: true };
  });

  // helmet's headers are computed once and set as they are. (@fastify/helmet's own hooks cost every request,
  // visitor routes included, an async hook and a fresh helmet middleware per app request: about a tenth of
  // the landing page's throughput in `npm run bench`.)
  const appHeaders = appSecurityHeaders(config);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.visitorRoute !== true) void reply.headers(appHeaders);
    // By the matched route, as the router decoded the address (`/%61pi/user` is `/api/user`), or the raw
    // address for an API path no route matched (its 404).
    const route = request.routeOptions.url;
    if (route === SUBMIT_ROUTE) {
      const origin = request.headers.origin;
      if (origin !== undefined) void reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    } else if (route !== undefined && EMBED_ROUTES.has(route)) {
      void reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
    } else if (route?.startsWith('/api/') || request.url.startsWith('/api/')) {
      void reply.header('cache-control', 'no-store');
    }
    done();
  });

  // The preflight of a JSON submission from a sandboxed page (origin `null`) or an embedded form (any origin):
  // POST with a JSON body, no credentials.
  fastify.options('/api/page/:slug/submit', (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return reply.status(404).send({ message: CommonMessages.notFound });
    return reply
      .status(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type, accept')
      .header('access-control-max-age', '600')
      .header('vary', 'Origin')
      .send();
  });

  if (landingPagesHost(config)) installHostSplit(fastify, config);
}

/** The landing pages' host (lower case) when they have one of their own (PUBLIC_ORIGIN ≠ APP_ORIGIN), else undefined. */
export function landingPagesHost(config: AppConfig): string | undefined {
  return config.publicOrigin !== config.appOrigin ? new URL(config.publicOrigin).host.toLowerCase() : undefined;
}

const pageHostCache = new WeakMap<AppConfig, { host: string | undefined }>();

/**
 * Whether a request may be answered with a landing page: always on one host; with a host of their own, only
 * there. The host split decides this before routing; the handlers that render a page or take its form ask
 * again, so that no routing mistake can ever put a creator's code on the app's origin. `request.host`
 * honours X-Forwarded-Host only behind a trusted proxy (TRUST_PROXY).
 */
export function mayAnswerLandingPage(request: FastifyRequest, config: AppConfig): boolean {
  let cached = pageHostCache.get(config);
  if (!cached) pageHostCache.set(config, (cached = { host: landingPagesHost(config) }));
  return cached.host === undefined || request.host.toLowerCase() === cached.host;
}

/** A landing page (or its form post) asked on the app host: it lives on the public host (308 keeps a post a post). */
export function redirectToLandingPagesHost(request: FastifyRequest, reply: FastifyReply, config: AppConfig): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .redirect(`${config.publicOrigin}${request.url}`, request.method === 'GET' || request.method === 'HEAD' ? 301 : 308);
}

function installHostSplit(fastify: FastifyInstance, config: AppConfig): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    const url = request.url;
    const kind = classifyRoute(request.routeOptions.url, request.params);
    if (kind === 'shared') return done();
    const onPublic = mayAnswerLandingPage(request, config);
    if (kind === 'page' && !onPublic) {
      void redirectToLandingPagesHost(request, reply, config);
      return;
    }
    if (kind === 'app' && onPublic) {
      if ((request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api') {
        void reply.redirect(`${config.appOrigin}${url}`, 302);
      } else {
        void reply.status(404).header('cache-control', 'no-store').send({ message: CommonMessages.notFound });
      }
      return;
    }
    done();
  });
}
