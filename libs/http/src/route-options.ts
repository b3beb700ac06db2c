import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's request body limit in bytes, instead of the app-wide one (see installRouteOptions). */
    bodyLimit?: number;
    /**
     * Answers the errors raised before the route's handler runs (CSRF refusal, a body Fastify cannot parse
     * or that is too large), which never reach the handler's exception filters (see installRouteOptions).
     */
    errorHandler?: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;
  }
}

/**
 * Lets a Nest route set the Fastify route options Nest has no decorator for: `@RouteConfig({ bodyLimit })`,
 * `@RouteConfig({ errorHandler })` and `@RouteConfig({ compress: false })` (see precompressed.ts). Nest's Fastify adapter hands `@RouteConfig` to Fastify as the
 * route's `config` only, while Fastify reads these from the route's own options; this `onRoute` hook copies
 * them across. Installed on the Fastify instance before any route is added (createHttpApp).
 */
export function installRouteOptions(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config;
    if (!config) return;
    if (typeof config.bodyLimit === 'number' && route.bodyLimit === undefined) route.bodyLimit = config.bodyLimit;
    if (typeof config.errorHandler === 'function' && route.errorHandler === undefined) route.errorHandler = config.errorHandler;
    // Read by the compression plugin's own onRoute hook, which runs after this one (registered later).
    if (config.compress === false) (route as RouteOptions & { compress?: false }).compress = false;
  });
}
