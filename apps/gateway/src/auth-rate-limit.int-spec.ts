import type { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

describe('per-address limits on the auth calls', () => {
  let gateway: TestGateway;
  let b: TestBrowser;

  beforeAll(async () => {
    gateway = await startTestGateway({ AUTH_RATE_LIMIT_PER_MINUTE: '100' });
    b = gateway.browser();
  });

  afterAll(async () => {
    await gateway?.close();
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
