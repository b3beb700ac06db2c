import 'reflect-metadata';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '@plink/config';
import { CommonMessages } from '@plink/contracts';
import { type PlainRouteDoc, ApiExceptionFilter, EarlyAnswers, installBodyParsers, installCsrfDefence, installHttpEdge, installRouteOptions } from '@plink/http';
import { getLogger, PinoNestLogger, httpRequestSeconds, mayReadMetrics, renderMetrics } from '@plink/observability';

/** On close, how long requests under way may take before the connections still open are cut. */
export const CLOSE_GRACE_MS = 3_000;

/** JSON bodies above this are refused with 413 (uploads have their own limit). */
export const JSON_BODY_LIMIT = 100 * 1024;

/**
 * A Nest application on Fastify with Plink's HTTP edge: correlation ids, ORM request contexts,
 * cookies, the body limit (and a route's own, see installRouteOptions), the body parsers, the CSRF guard (installCsrfDefence) and JSON errors. Not yet initialised: the caller may add to the
 * Fastify instance, then calls `init()` / `listen()`.
 */
export async function createHttpApp(rootModule: Type<unknown> | DynamicModule, config: AppConfig): Promise<NestFastifyApplication> {
  // Filled once the app exists (no request arrives before it listens).
  const early: { answers?: EarlyAnswers } = {};
  const adapter = new FastifyAdapter({
    // The server Fastify would make (with its timeouts), whose requests first meet the early answers.
    serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void, options: FastifyServerOptions) => {
      const server = createServer((request: IncomingMessage, response: ServerResponse) => {
        if (!early.answers?.answer(request, response)) handler(request, response);
      });
      server.keepAliveTimeout = options.keepAliveTimeout ?? server.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout ?? server.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxyOption(config.trustProxy),
    // A visitor's mistyped link (`/p/user/`, `/p//x`) reaches the page it names, or its "Page Not Found", like
    // any address without the stray slash; an empty path segment would otherwise match no route at all.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // While stopping, requests on connections already open are still served (readiness says 'draining' so no
    // new traffic comes); new connections are refused.
    return503OnClosing: false,
    // Prototype-pollution keys in a JSON body are refused (400), never stripped or kept.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new PinoNestLogger(),
    abortOnError: false,
    // Nest would add a urlencoded parser to every route: the body parsers are Plink's own (installBodyParsers).
    bodyParser: false,
  });
  early.answers = app.get(EarlyAnswers, { strict: false });
  const fastify = app.getHttpAdapter().getInstance();
  // Closing could wait on keep-alive connections clients left open: after the gateway fuzz test's few thousand
  // odd requests a dozen stayed, and closing took 70 s (the keep-alive timeout), which would hold a stop
  // (SIGTERM, a deploy) as long. Requests under way get CLOSE_GRACE_MS to finish; then every connection is cut.
  fastify.addHook('preClose', (done) => {
    setTimeout(() => fastify.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    done();
  });
  installRouteOptions(fastify);
  installMetrics(fastify, config);
  installHttpEdge(fastify, app.get(MikroORM));
  installCsrfDefence(fastify, config);
  installBodyParsers(fastify);
  await app.register(fastifyCookie);
  app.useGlobalFilters(new ApiExceptionFilter());
  return app;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes proxy-addr's own rule (the connection's peer and the
 * `hops - 1` addresses it names before it are proxies; the client is the address the outermost one saw):
 * Fastify itself now reads a bare number as "trust nothing", since a client that reaches the port directly
 * could then pick its address; a count is for ports only the proxies reach, addresses are stricter.
 */
function trustProxyOption(trust: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The API reference's entry of the `GET /metrics` {@link installMetrics} adds. */
export const METRICS_ROUTE_DOC: PlainRouteDoc = {
  method: 'get',
  path: '/metrics',
  tag: 'Operations',
  summary: 'Prometheus metrics',
  description:
    'With `Authorization: Bearer <METRICS_TOKEN>`; outside production also for scrapers inside the network (loopback or private addresses, as TRUST_PROXY tells them); anyone else gets 404.',
  ok: { status: 200, description: 'Metrics in the Prometheus text format', contentType: 'text/plain' },
  errors: { 404: CommonMessages.notFound },
};

/**
 * Request durations by route pattern (never the raw URL: a bounded set of series) and `GET /metrics` for
 * scrapers holding METRICS_TOKEN, and outside production for those inside the network too (others get 404,
 * as if it did not exist; see mayReadMetrics).
 */
function installMetrics(fastify: FastifyInstance, config: AppConfig): void {
  const internal = config.env === 'production' ? 'token-only' : 'allowed';
  if (config.env === 'production' && !config.metricsToken) {
    getLogger().warn('/metrics is off on this port: set METRICS_TOKEN (Authorization: Bearer <token>), or scrape HEALTH_PORT');
  }
  fastify.addHook('onResponse', (request, reply, done) => {
    httpRequestSeconds.observe(
      {
        method: KNOWN_METHODS.has(request.method) ? request.method : 'other',
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  fastify.get('/metrics', async (request, reply) => {
    if (!mayReadMetrics(request.ip, request.headers.authorization, config.metricsToken, internal)) {
      return reply.code(404).send({ message: 'Not found' });
    }
    const { contentType, body } = await renderMetrics();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
