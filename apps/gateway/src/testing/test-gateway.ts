import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { loadConfig, type AppConfig } from '@plink/platform';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { createGateway } from '../bootstrap';
import { TestBrowser } from './http-client';

export interface TestGateway {
  env: TestEnvironment;
  config: AppConfig;
  app: NestFastifyApplication;
  /** http://127.0.0.1:<port> of the listening gateway. */
  origin: string;
  /** A connection to the run's own database, for checks and set-up the API does not offer. */
  db: Client;
  browser(): TestBrowser;
  /** Stops the gateway and removes the run's database and Redis keys. */
  close(): Promise<void>;
}

/** The whole gateway on its own fresh database and Redis prefix, listening on a free port. */
export async function startTestGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  const env = await createTestEnvironment(overrides);
  const config = loadConfig(env.vars);
  const app = await createGateway(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const db = new Client({ connectionString: env.database.url });
  await db.connect();
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
