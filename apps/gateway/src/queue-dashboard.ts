import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { ControllerHandlerReturnType } from '@bull-board/api/typings/app';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { CommonMessages, QueueName } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { toApiError, type PlainRouteDoc } from '@plink/http';
import type { AppConfig } from '@plink/config';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** The dashboard's answer (401) to a call without the operator password. */
const OPERATOR_PASSWORD_REQUIRED = 'Operator password required.';

/** Wrong passwords one address may try in 15 minutes before the dashboard answers it 429. */
const FAILURES_PER_ADDRESS = 10;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The API reference's entry of the dashboard {@link installQueueDashboard} serves. */
export const QUEUE_DASHBOARD_DOC: PlainRouteDoc = {
  method: 'get',
  path: QUEUE_DASHBOARD_PATH,
  tag: 'Operations',
  summary: 'The queue dashboard (jobs waiting, running, failed; retry and remove)',
  description:
    'Only when `OPERATOR_PASSWORD` is set: HTTP Basic authentication with any user name and that password. Otherwise 404. A call from another site (its `Origin`, or `Sec-Fetch-Site` on a change) gets 403.',
  ok: { status: 200, description: 'The dashboard', contentType: 'text/html' },
  errors: { 401: OPERATOR_PASSWORD_REQUIRED, 403: CommonMessages.crossSiteRequest, 404: CommonMessages.notFound },
};

/**
 * The operator's queue dashboard (bull-board) at /admin/queues: every queue with its jobs, and retry or remove
 * for failed ones. Off (404, as if it did not exist) unless OPERATOR_PASSWORD is set; then behind HTTP basic
 * auth with that password (any user name), compared in constant time, with wrong passwords limited per address.
 *
 * A browser keeps sending basic-auth credentials to the dashboard once the operator has typed them, so a page
 * of another site could make it retry or remove jobs: calls from another origin get 403 before the password is
 * even looked at (see {@link crossSite}). Errors answer the API's `{ message }`, never bull-board's own body,
 * which carries the error's stack in development.
 */
export async function installQueueDashboard(fastify: FastifyInstance, config: AppConfig, jobs: JobQueue): Promise<void> {
  const password = config.operatorPassword;
  if (!password) return;
  const board = new FastifyAdapter();
  board.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(QueueName).map((name) => new BullMQAdapter(jobs.queue(name))),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'Plink queues' } },
  });
  // After createBullBoard, which sets bull-board's own handler. Its type lists fewer statuses than the API
  // answers (413, 415, 429, 503); the adapter sends whichever it is given.
  board.setErrorHandler((error) => {
    const { status, message } = toApiError(error);
    if (status >= 500) getLogger().error({ err: error }, 'queue dashboard: request failed');
    return { status, body: { message } } as ControllerHandlerReturnType;
  });
  const appOrigin = new URL(config.appOrigin).origin;
  const failures = new RateLimiterMemory({ points: FAILURES_PER_ADDRESS, duration: 15 * 60 });
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (crossSite(request, appOrigin)) return reply.code(403).send({ message: CommonMessages.crossSiteRequest });
      const blocked = await failures.get(request.ip);
      if (blocked && blocked.consumedPoints >= FAILURES_PER_ADDRESS) {
        return reply.code(429).header('retry-after', String(Math.ceil(blocked.msBeforeNext / 1000))).send({ message: 'Too many attempts. Please try again later.' });
      }
      if (rightPassword(request.headers.authorization, password)) return undefined;
      if (request.headers.authorization) {
        await failures.consume(request.ip).catch(() => undefined);
        getLogger().warn({ ip: request.ip }, 'queue dashboard: wrong operator password');
      }
      return reply.code(401).header('www-authenticate', 'Basic realm="Plink operator", charset="UTF-8"').send({ message: OPERATOR_PASSWORD_REQUIRED });
    });
    await scope.register(board.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
  getLogger().info({ path: QUEUE_DASHBOARD_PATH }, 'queue dashboard on (OPERATOR_PASSWORD is set)');
}

/**
 * A call a page of another origin made. Where the browser says where a request comes from (`Sec-Fetch-Site`,
 * which pages cannot forge), anything but `same-origin` (or `none`: typed by the operator) is refused when it
 * changes state or is a script's call (it carries an `Origin`); following a link to the dashboard stays
 * allowed. Without that header, an `Origin` other than APP_ORIGIN is refused. A request with neither (curl,
 * a script) is no browser's forgery and goes on to the password check.
 */
function crossSite(request: FastifyRequest, appOrigin: string): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (site === undefined) return origin !== undefined && origin !== appOrigin;
  if (site === 'same-origin' || site === 'none') return false;
  return STATE_CHANGING.has(request.method) || origin !== undefined;
}

/** `Authorization: Basic base64(user:password)` with the operator password (the user name is not checked). */
function rightPassword(authorization: string | undefined, password: string): boolean {
  if (!authorization?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(decoded.slice(colon + 1)), digest(password));
}
