import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { CommonMessages, mayBePageSlug } from '@plink/contracts';
import type { AppConfig } from '../config/config.schema';

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
const VISITOR_ROUTES = new Set(['/', '/:slug', '/p/:slug', '/p/:username/:slug', '/api/page/:slug/submit', '/fonts/:file', '/uploads/*']);

/** The visitor's JSON submit call (`POST /api/page/{slug}/submit`). */
const SUBMIT_PATH = /^\/api\/page\/[^/?]+\/submit(?:\?|$)/;

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

/** What a path is, for the two-host set-up: a landing page, something both hosts serve, or the app. */
export type PathKind = 'page' | 'shared' | 'app';

/** Classifies a request path (no query string). Pure string work: runs on every request in the two-host set-up. */
export function classifyPath(path: string): PathKind {
  if (path === '/health' || path.startsWith('/health/') || path === '/favicon.ico' || path.startsWith('/fonts/') || path.startsWith('/uploads/')) return 'shared';
  if (SUBMIT_PATH.test(path)) return 'shared';
  if (path.startsWith('/p/')) return 'page';
  const slash = path.indexOf('/', 1);
  if (slash === -1 || slash === path.length - 1) {
    const slug = path.slice(1, slash === -1 ? undefined : slash);
    if (slug && mayBePageSlug(slug)) return 'page';
  }
  return 'app';
}

/**
 * The gateway's security headers and the two-host split:
 * - the app (SPA, API, static files) gets helmet's headers (CSP, no framing, HSTS over https, nosniff,
 *   Referrer-Policy…); visitor routes ({@link VISITOR_ROUTES}) skip helmet and send their own;
 * - every /api answer but the public submit call is `Cache-Control: no-store` (signed-in JSON must not be
 *   kept by a browser or proxy); a route may still set its own;
 * - the submit call answers a sandboxed landing page (origin `null`, see the page renderer) with CORS, so
 *   its inline script can read the answer (no cookies are involved);
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
    const url = request.url;
    if (url.startsWith('/api/')) {
      if (!SUBMIT_PATH.test(url)) void reply.header('cache-control', 'no-store');
      else if (request.headers.origin === 'null') void reply.header('access-control-allow-origin', 'null').header('vary', 'Origin');
    }
    done();
  });

  // The preflight of a sandboxed page's JSON submission (origin `null`): POST with a JSON body, no credentials.
  fastify.options('/api/page/:slug/submit', (request, reply) => {
    if (request.headers.origin !== 'null') return reply.status(404).send({ message: CommonMessages.notFound });
    return reply
      .status(204)
      .header('access-control-allow-origin', 'null')
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type, accept')
      .header('access-control-max-age', '600')
      .header('vary', 'Origin')
      .send();
  });

  const publicHost = landingPagesHost(config);
  if (publicHost) installHostSplit(fastify, config, publicHost);
}

/** The landing pages' host (lower case) when they have one of their own (PUBLIC_ORIGIN ≠ APP_ORIGIN), else undefined. */
export function landingPagesHost(config: AppConfig): string | undefined {
  return config.publicOrigin !== config.appOrigin ? new URL(config.publicOrigin).host.toLowerCase() : undefined;
}

function installHostSplit(fastify: FastifyInstance, config: AppConfig, publicHost: string): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    const url = request.url;
    const q = url.indexOf('?');
    const kind = classifyPath(q === -1 ? url : url.slice(0, q));
    if (kind === 'shared') return done();
    // request.host honours X-Forwarded-Host only when TRUST_PROXY is on (Fastify's trustProxy).
    const onPublic = request.host.toLowerCase() === publicHost;
    if (kind === 'page' && !onPublic) {
      // A landing page asked on the app host: it lives on the public host (308 keeps a form post a post).
      void reply.redirect(`${config.publicOrigin}${url}`, request.method === 'GET' || request.method === 'HEAD' ? 301 : 308);
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
