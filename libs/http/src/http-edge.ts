import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@mikro-orm/postgresql';
import { CommonMessages } from '@plink/contracts';
import { runWithRequestOrmContext } from '@plink/data';
import { getLogger, runWithCorrelation } from '@plink/observability';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Log this route's requests only when they fail or are slow (visitor traffic). */
    quietAccessLog?: boolean;
  }
}

/** The two headers every answer carries, whatever route or early answer gives it. */
export const EVERY_ANSWER_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin' } as const;

/** The request id an answer carries: the caller's `x-request-id` when it is a sane one, else a new one. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}

/**
 * Per-request plumbing on the Fastify instance: a correlation id (x-request-id) and a pino child
 * logger, an ORM context (forked on first use), the two security headers every answer carries (the app's full set and the landing
 * pages' policies: security-headers.ts), and one access-log line per request (route pattern, never the raw URL,
 * which may carry a token). Errors, including Fastify's own (bad JSON, too large), reach Nest's
 * exception filters, where {@link toApiError} shapes them.
 */
export function installHttpEdge(fastify: FastifyInstance, orm: MikroORM): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const id = requestIdOf(request.headers['x-request-id']);
    void reply.header('x-request-id', id);
    runWithCorrelation(id, () => runWithRequestOrmContext(orm, () => done()));
  });

  fastify.addHook('onSend', (_request, reply, payload, done) => {
    void reply.headers(EVERY_ANSWER_HEADERS);
    done(null, payload);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    // Routes marked `config: { quietAccessLog: true }` (visitor pages) log only failures and slow answers.
    const quiet = request.routeOptions?.config?.quietAccessLog;
    if (quiet && reply.statusCode < 500 && ms < 1_000) {
      done();
      return;
    }
    const route = request.routeOptions?.url ?? (request.url.startsWith('/api') ? 'unmatched /api route' : 'static');
    getLogger().info(
      { method: request.method, route, status: reply.statusCode, ms: Math.round(ms) },
      'request',
    );
    done();
  });
}

/** 404 JSON for unknown /api routes. */
export function apiNotFound(): { message: string } {
  return { message: CommonMessages.notFound };
}
