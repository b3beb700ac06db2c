import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { CommonMessages } from '@plink/contracts';
import type { AppConfig } from '@plink/config';
import { ApiError } from './api-exception.filter';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A body this route takes besides parsed JSON: `form` (a browser's urlencoded form post), `multipart` (the
     * route reads its multipart body itself and answers other bodies in its own words), or `raw-json` (JSON
     * handed to the route as its exact text, unparsed: a signed webhook, whose signature covers those bytes).
     */
    bodyKind?: 'form' | 'multipart' | 'raw-json';
    /**
     * A visitor's submission on a landing page: allowed from the app's origin, the public pages' origin and
     * the opaque origin (`Origin: null`) of a sandboxed page, whatever its Sec-Fetch-Site says. `any-origin`:
     * also from any other site, for the form embedded there (embed.js, the plain-HTML form).
     */
    visitorFacing?: boolean | 'any-origin';
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

type Guard = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Cross-site request forgery defence, on top of the session cookie's SameSite=Lax (which does not cover
 * another origin of the same site, e.g. another port or subdomain):
 *
 * - Where it comes from. A browser says where a request comes from: `Sec-Fetch-Site` (every current
 *   browser), else `Origin`. A state-changing call (POST, PUT, PATCH, DELETE) carrying `Sec-Fetch-Site`
 *   must say `same-origin` (or `none`: typed by the user); without it, an `Origin` must be APP_ORIGIN's.
 *   A request with neither header is not a browser's cross-site request (curl, server-to-server, tests)
 *   and passes. Otherwise: 403. Login and registration are included (no login CSRF).
 * - What it carries. A JSON body needs `Content-Type: application/json`, which a page of another origin
 *   cannot send without a CORS preflight, and Plink answers no preflight. So every state-changing call
 *   takes only JSON (415 otherwise; a call without a body may send no type), except the routes that say
 *   otherwise in their config (`bodyKind`): the no-JavaScript lead form and the image upload.
 * - Visitor submissions (`visitorFacing`) carry no cookie-based authority, so forging one gains nothing
 *   a visitor could not do directly; they arrive from landing pages served on PUBLIC_ORIGIN, or from a
 *   sandboxed page with an opaque origin (`Origin: null`, Sec-Fetch-Site anything). They accept those
 *   origins and APP_ORIGIN, and refuse a page of any other origin posting into them — except the calls of the
 *   form embedded on other sites (`visitorFacing: 'any-origin'`: the submit call, the form posts, the embed's
 *   view report), which take any origin: what they do is what anyone can do with curl, and the bot shield
 *   judges them (a plain form from another site is always confirmed by e-mail).
 *
 * The check is a per-route `onRequest` hook built when the route is registered (from its config), so
 * reading pages costs nothing and a submission pays a few header comparisons, with no allocation.
 */
export function installCsrfDefence(fastify: FastifyInstance, config: AppConfig): void {
  const appOrigin = new URL(config.appOrigin).origin;
  const visitorOrigins = new Set([appOrigin, new URL(config.publicOrigin).origin, 'null']);
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => STATE_CHANGING.has(m.toUpperCase()))) return;
    const facing = route.config?.visitorFacing;
    const guard = routeGuard(route.config?.bodyKind, facing === true || facing === 'any-origin', facing === 'any-origin', appOrigin, visitorOrigins);
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [guard as never, ...own];
  });
}

function routeGuard(
  bodyKind: 'form' | 'multipart' | 'raw-json' | undefined,
  visitorFacing: boolean,
  anyOrigin: boolean,
  appOrigin: string,
  visitorOrigins: Set<string>,
): Guard {
  const refusedType = bodyKind === 'form' ? CommonMessages.unsupportedFormMediaType : CommonMessages.unsupportedMediaType;
  return (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    const headers = request.headers;
    const origin = headers.origin;
    if (visitorFacing) {
      if (!anyOrigin && origin !== undefined && !visitorOrigins.has(origin)) return done(crossSite());
    } else {
      const site = headers['sec-fetch-site'];
      if (site !== undefined) {
        if (site !== 'same-origin' && site !== 'none') return done(crossSite());
      } else if (origin !== undefined && origin !== appOrigin) {
        return done(crossSite());
      }
    }
    // The multipart route reads (and refuses) bodies itself.
    if (bodyKind === 'multipart') return done();
    const type = headers['content-type'];
    if (type === undefined) {
      // No declared type: fine without a body (a bare POST such as logout), refused with one.
      return done(hasBody(headers) ? new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, refusedType) : undefined);
    }
    if (type === JSON_TYPE) return done();
    const media = mediaType(type);
    if (media === JSON_TYPE || (bodyKind === 'form' && media === FORM_TYPE)) return done();
    done(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, refusedType));
  };
}

function crossSite(): ApiError {
  return new ApiError(HttpStatus.FORBIDDEN, CommonMessages.crossSiteRequest);
}

function hasBody(headers: FastifyRequest['headers']): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string): string {
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}
