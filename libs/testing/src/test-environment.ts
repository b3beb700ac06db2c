import { createTestDatabase, type TestDatabase } from './test-database';
import { deleteRedisPrefix, testRedisUrl, uniqueRedisPrefix } from './test-redis';

/**
 * The SESSION_SECRET of every test environment: a test that stands in for a visitor who loaded a page some
 * seconds ago signs the page's form token with it (as the page would have carried it), see docs/testing.md.
 */
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';

export interface TestEnvironment {
  /** Environment variables for `loadConfig`: the run's own database and Redis prefix, plus overrides. */
  vars: Record<string, string>;
  database: TestDatabase;
  /** Drops the database and deletes the run's Redis keys. */
  cleanup(): Promise<void>;
}

/**
 * The environment of one test file: its own fresh database and Redis prefix on the machine's
 * servers, plus any overrides (e.g. SMTP_URL of an {@link SmtpCatcher}).
 */
export async function createTestEnvironment(overrides: Record<string, string> = {}): Promise<TestEnvironment> {
  const database = await createTestDatabase();
  const redisUrl = overrides.REDIS_URL ?? testRedisUrl();
  const redisPrefix = uniqueRedisPrefix();
  const vars: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APP_ORIGIN: 'http://plink.test',
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: '5',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    SESSION_SECRET: TEST_SESSION_SECRET,
    MAIL_OUTBOX_DIR: '/tmp/plink-test-mail',
    // Test files register many accounts from one address; the limit has its own test.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
    ...overrides,
  };
  return {
    vars,
    database,
    async cleanup() {
      await database.drop();
      await deleteRedisPrefix(redisUrl, redisPrefix).catch(() => undefined);
    },
  };
}
