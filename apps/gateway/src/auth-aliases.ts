import type { FastifyInstance } from 'fastify';
import { AUTH_ALIASES, authAliasTarget } from '@plink/contracts';

/**
 * `/login`, `/register` and `/signup`: 302 to the sign-in screen's tab (`/auth`, `/auth?tab=register`), the
 * query string kept. The SPA's router knows the same addresses for in-app links. They are reserved slugs,
 * so no landing page is hidden by them; on a separate public host they are app paths, sent to the app's
 * host first like every other.
 */
export function serveAuthAliases(fastify: FastifyInstance): void {
  for (const path of Object.keys(AUTH_ALIASES)) {
    fastify.get(path, (request, reply) => {
      const q = request.url.indexOf('?');
      return reply.header('cache-control', 'no-cache').redirect(authAliasTarget(path, q === -1 ? '' : request.url.slice(q)) ?? '/auth', 302);
    });
  }
}
