import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import { CommonMessages } from '@plink/contracts';
import { getLogger, runWithCorrelation } from '../logging/logger';
import { toApiError } from './api-exception.filter';

/**
 * Per-request plumbing on the Fastify instance: a correlation id (x-request-id) and a pino child
 * logger, an ORM context, a JSON error for whatever fails before Nest (bad JSON, too large,
 * wrong content type), JSON 404s under /api, and one access-log line per request (route pattern,
 * never the raw URL, which may carry a token).
 */
export function installHttpEdge(fastify: FastifyInstance, orm: MikroORM): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    void reply.header('x-request-id', id);
    runWithCorrelation(id, () => RequestContext.create(orm.em, () => done()));
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? (request.url.startsWith('/api') ? 'unmatched /api route' : 'static');
    getLogger().info(
      { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
    done();
  });

  fastify.setErrorHandler((error, _request, reply) => {
    const { status, message, headers } = toApiError(error);
    if (status >= 500) getLogger().error({ err: error }, 'request failed');
    if (headers) void reply.headers(headers);
    void reply.status(status).send({ message });
  });
}

/** 404 JSON for unknown /api routes. */
export function apiNotFound(): { message: string } {
  return { message: CommonMessages.notFound };
}
