import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { QueueName } from '@plink/contracts';
import { JobQueue, getLogger, type AppConfig } from '@plink/platform';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** Wrong passwords one address may try in 15 minutes before the dashboard answers it 429. */
const FAILURES_PER_ADDRESS = 10;

/**
 * The operator's queue dashboard (bull-board) at /admin/queues: every queue with its jobs, and retry or remove
 * for failed ones. Off (404, as if it did not exist) unless OPERATOR_PASSWORD is set; then behind HTTP basic
 * auth with that password (any user name), compared in constant time, with wrong passwords limited per address.
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
  const failures = new RateLimiterMemory({ points: FAILURES_PER_ADDRESS, duration: 15 * 60 });
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const blocked = await failures.get(request.ip);
      if (blocked && blocked.consumedPoints >= FAILURES_PER_ADDRESS) {
        return reply.code(429).header('retry-after', String(Math.ceil(blocked.msBeforeNext / 1000))).send({ message: 'Too many attempts. Please try again later.' });
      }
      if (rightPassword(request.headers.authorization, password)) return undefined;
      if (request.headers.authorization) {
        await failures.consume(request.ip).catch(() => undefined);
        getLogger().warn({ ip: request.ip }, 'queue dashboard: wrong operator password');
      }
      return reply.code(401).header('www-authenticate', 'Basic realm="Plink operator", charset="UTF-8"').send({ message: 'Operator password required.' });
    });
    await scope.register(board.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
  getLogger().info({ path: QUEUE_DASHBOARD_PATH }, 'queue dashboard on (OPERATOR_PASSWORD is set)');
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
