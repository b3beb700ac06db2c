import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type AppConfig } from '@plink/platform';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { createGateway } from './bootstrap';
import { TestBrowser } from './testing/http-client';

describe('per-address limits on the auth calls', () => {
  let env: TestEnvironment;
  let config: AppConfig;
  let app: NestFastifyApplication;
  let b: TestBrowser;

  beforeAll(async () => {
    env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '100' });
    config = loadConfig(env.vars);
    app = await createGateway(config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    b = new TestBrowser((await app.getUrl()).replace('[::1]', '127.0.0.1'));
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('lets an office make 100 requests a minute from one address, then answers 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 100; i += 1) answers.push((await b.post('/api/forgot-password', { email: `someone${i}@example.com` })).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    const limited = await b.post('/api/forgot-password', { email: 'one-more@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many requests. Please slow down and try again in a minute.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Each call has its own budget: login still answers normally.
    expect((await b.post('/api/login', { email: 'nobody@example.com', password: 'whatever1' })).status).toBe(401);
  });
});
