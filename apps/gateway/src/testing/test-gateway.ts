import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pool } from 'pg';
import { loadConfig, type AppConfig } from '@plink/config';
import { createTestEnvironment, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { createGateway } from '../bootstrap';
import { TestBrowser } from './http-client';

export interface TestGateway {
  env: TestEnvironment;
  config: AppConfig;
  app: NestFastifyApplication;
  /** http://127.0.0.1:<port> of the listening gateway. */
  origin: string;
  /** A connection to the run's own database, for checks and set-up the API does not offer. */
  db: Pool;
  browser(): TestBrowser;
  /** Stops the gateway and removes the run's database and Redis keys. */
  close(): Promise<void>;
}

/**
 * A gateway that delivers webhooks to a receiver in the test: every worker in-process, no rate limits in the
 * way of a burst, and local addresses allowed as webhook targets (the receiver listens on 127.0.0.1).
 */
export const WEBHOOK_TEST_SETTINGS: Readonly<Record<string, string>> = {
  PLINK_WORKERS: 'all',
  AUTH_RATE_LIMIT_PER_MINUTE: '0',
  LEAD_RATE_LIMIT_PER_MINUTE: '0',
  LEAD_FLOOD_PER_HOUR: '0',
  LEAD_REFUSED_PER_HOUR: '0',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

/** The whole gateway on its own fresh database and Redis prefix, listening on a free port. */
export async function startTestGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  const env = await createTestEnvironment(overrides);
  const config = loadConfig(env.vars);
  const app = await createGateway(config);
  const origin = await listenOnLoopback(app);
  const db = await openTestPool(env.database.url);
  return {
    env,
    config,
    app,
    origin,
    db,
    browser: () => new TestBrowser(origin),
    async close() {
      await app.close();
      await db.end();
      await env.cleanup();
    },
  };
}
