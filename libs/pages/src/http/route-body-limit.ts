import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Request bodies of page saves may carry rich text with inline images (each up to 2 MB): above the
 * app-wide 100 KB JSON limit, under this one. Larger bodies get the usual 413 JSON answer.
 */
export const PAGE_BODY_LIMIT = 8 * 1024 * 1024;

const INSTALLED = Symbol.for('plink.routeBodyLimits');

/**
 * Lets a Nest route choose its own body limit with `@RouteConfig({ bodyLimit })`. Nest's Fastify adapter
 * passes `@RouteConfig` to Fastify as the route's `config` only, while Fastify reads the limit from the
 * route's top-level `bodyLimit` option; this `onRoute` hook copies it across. Installed when the module is
 * built, i.e. before Nest registers its routes (at `app.init()`).
 */
@Injectable()
export class RouteBodyLimits {
  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter?.getInstance?.() as (FastifyInstance & { [INSTALLED]?: boolean }) | undefined;
    if (!fastify || typeof fastify.addHook !== 'function' || fastify[INSTALLED]) return;
    fastify[INSTALLED] = true;
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
      if (typeof limit === 'number' && route.bodyLimit === undefined) route.bodyLimit = limit;
    });
  }
}
