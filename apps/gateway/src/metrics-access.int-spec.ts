import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenMetricsPort } from '@plink/observability';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

const TOKEN = 'metrics-token-for-tests-0123456789';

const metrics = (gateway: TestGateway, headers: Record<string, string> = {}) => fetch(`${gateway.origin}/metrics`, { headers });

/**
 * Who reads the gateway's /metrics: behind a proxy the client address is the one that proxy saw (TRUST_PROXY
 * as a hop count), so a visitor's own X-Forwarded-For cannot pass for a private address; in production only
 * METRICS_TOKEN opens it.
 */
describe('/metrics access through a proxy (TRUST_PROXY=1)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers a scraper inside the network, not a visitor who writes a private address in X-Forwarded-For', async () => {
    expect((await metrics(gateway, { 'x-forwarded-for': '10.1.2.3' })).status).toBe(200);
    const spoofed = await metrics(gateway, { 'x-forwarded-for': '10.1.2.3, 203.0.113.50' });
    expect(spoofed.status).toBe(404);
    expect(await spoofed.text()).not.toContain('plink_');
    expect((await metrics(gateway, { 'x-forwarded-for': '127.0.0.1, 192.168.0.1, 203.0.113.50' })).status).toBe(404);
  });
});

describe('/metrics in production', () => {
  let withToken: TestGateway;
  let withoutToken: TestGateway;
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'Zq8v1Lr3Tn6Wx0Yp2Bd5Gh7Jk9Mf4Sc1Va3Xe6Qu8Ri0Oy2', TRUST_PROXY: '1' };
  beforeAll(async () => {
    withToken = await startTestGateway({ ...production, METRICS_TOKEN: TOKEN });
    withoutToken = await startTestGateway(production);
  });
  afterAll(async () => {
    await withToken?.close();
    await withoutToken?.close();
  });

  it('needs METRICS_TOKEN, even from a private address', async () => {
    expect((await metrics(withToken)).status).toBe(404);
    expect((await metrics(withToken, { 'x-forwarded-for': '10.1.2.3' })).status).toBe(404);
    expect((await metrics(withToken, { authorization: 'Bearer wrong' })).status).toBe(404);
    const scraped = await metrics(withToken, { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.50' });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('plink_http_request_duration_seconds');
  });

  it('is closed without METRICS_TOKEN', async () => {
    expect((await metrics(withoutToken)).status).toBe(404);
    expect((await metrics(withoutToken, { authorization: 'Bearer ' })).status).toBe(404);
  });
});

describe("/metrics on the gateway's HEALTH_PORT (production)", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = await listenMetricsPort(0, '127.0.0.1', TOKEN);
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers a scraper inside the network without the token, judged on the connection, never on X-Forwarded-For', async () => {
    const scraped = await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.50' } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('plink_');
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
