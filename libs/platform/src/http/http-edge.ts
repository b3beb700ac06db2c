import type { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RequestContext, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { CommonMessages } from '@plink/contracts';
import { getLogger, runWithCorrelation } from '../logging/logger';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Log this route's requests only when they fail or are slow (visitor traffic). */
    quietAccessLog?: boolean;
  }
}

/**
 * Per-request plumbing on the Fastify instance: a correlation id (x-request-id) and a pino child
 * logger, an ORM context, the two security headers every answer carries (the app's full set and the landing
 * pages' policies: security-headers.ts), and one access-log line per request (route pattern, never the raw URL,
 * which may carry a token). Errors, including Fastify's own (bad JSON, too large), reach Nest's
 * exception filters, where {@link toApiError} shapes them.
 */
export function installHttpEdge(fastify: FastifyInstance, orm: MikroORM): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const incoming = request.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    void reply.header('x-request-id', id);
    runWithCorrelation(id, () => contextStorage.run(new RequestContext(new LazyForks(orm.em)), () => done()));
  });

  fastify.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'strict-origin-when-cross-origin');
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

/**
 * MikroORM's own request-context storage (public at run time, private in its typings): entering a
 * RequestContext we build lets the fork below be lazy. Every HTTP test that touches the database
 * covers this.
 */
const contextStorage = (RequestContext as unknown as { storage: AsyncLocalStorage<RequestContext> }).storage;

/**
 * The request's ORM context, forked on first use: a request that never touches the database (a
 * cached visitor page, a health probe) pays nothing for it.
 */
class LazyForks extends Map<string, EntityManager> {
  private forking = false;

  constructor(private readonly root: EntityManager) {
    super();
  }

  override get(name: string): EntityManager | undefined {
    let fork = super.get(name);
    // While the fork is being built, MikroORM asks for the context again: answer "none" then.
    if (!fork && name === this.root.name && !this.forking) {
      this.forking = true;
      try {
        fork = this.root.fork({ useContext: true, disableContextResolution: true });
      } finally {
        this.forking = false;
      }
      super.set(name, fork);
    }
    return fork;
  }
}

/** 404 JSON for unknown /api routes. */
export function apiNotFound(): { message: string } {
  return { message: CommonMessages.notFound };
}
