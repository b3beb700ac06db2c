import type { FastifyInstance } from 'fastify';
import { AUTH_ALIASES, authAliasTarget } from '@plink/contracts';
import type { PlainRouteDoc } from '@plink/http';

/** The API reference's entries of {@link serveAuthAliases}. */
export const AUTH_ALIAS_DOCS: PlainRouteDoc[] = [
  {
    method: 'get',
    path: '/login',
    tag: 'App',
    summary: 'The sign-in screen (redirects to `/auth`)',
    description: 'The query string is kept.',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth' } },
  },
  {
    method: 'get',
    path: '/register',
    tag: 'App',
    summary: 'The registration screen (redirects to `/auth?tab=register`)',
    description: 'The query string is kept (`/register?template=photo-guide` → `/auth?tab=register&template=photo-guide`).',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth?tab=register' } },
  },
  {
    method: 'get',
    path: '/signup',
    tag: 'App',
    summary: 'The registration screen (redirects to `/auth?tab=register`)',
    description: 'The same as `/register`.',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth?tab=register' } },
  },
];

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
