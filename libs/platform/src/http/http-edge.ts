import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import { CommonMessages } from '@plink/contracts';
import { getLogger, runWithCorrelation } from '../logging/logger';

/**
 * Per-request plumbing on the Fastify instance: a correlation id (x-request-id) and a pino child
 * logger, an ORM context, basic security headers, and one access-log line per request (route pattern, never the raw URL,
 * which may carry a token). Errors, including Fastify's own (bad JSON, too large), reach Nest's
 * exception filters, where {@link toApiError} shapes them.
 */
export function installHttpEdge(fastify: FastifyInstance, orm: MikroORM): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    void reply.header('x-request-id', id);
    runWithCorrelation(id, () => RequestContext.create(orm.em, () => done()));
  });

  fastify.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'strict-origin-when-cross-origin');
    done(null, payload);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? (request.url.startsWith('/api') ? 'unmatched /api route' : 'static');
    getLogger().info(
      { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
    done();
  });
}

/** 404 JSON for unknown /api routes. */
export function apiNotFound(): { message: string } {
  return { message: CommonMessages.notFound };
}
