import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Resolver } from '@plink/net';
import { MAX_RESPONSE_BYTES, WebhookSender } from './webhook-sender';

const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
const message = { id: 'msg_abcdefghijklmnopqrstuvwxyz', body: JSON.stringify({ type: 'lead.created', data: { email: 'a@example.com' } }) };

/** Every name resolves to 127.0.0.1, the way a rebinding or a careless DNS record would. */
const inward: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

describe('webhook sender', () => {
  let server: Server;
  let port: number;
  const seen: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
  let reply: (url: string) => { status: number; body?: string; headers?: Record<string, string> } = () => ({ status: 200, body: 'ok' });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString(), url: req.url ?? '' });
        const r = reply(req.url ?? '');
        res.writeHead(r.status, r.headers);
        res.end(r.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
    reply = () => ({ status: 200, body: 'ok' });
  });

  it('refuses inward addresses without connecting: IP literals and names that resolve inward', async () => {
    const sender = new WebhookSender({ allowPrivate: false, maxSockets: 2, resolver: inward });
    try {
      for (const url of [
        `http://127.0.0.1:${port}/x`,
        `http://[::1]:${port}/x`,
        `http://0x7f000001:${port}/x`,
        `http://10.0.0.1:${port}/x`,
        `http://169.254.169.254/latest/meta-data/`,
        `http://[::ffff:127.0.0.1]:${port}/x`,
      ]) {
        const result = await sender.send(url, [SECRET], message);
        expect({ url, status: result.status, error: result.error }).toEqual({ url, status: null, error: expect.stringMatching(/^blocked address \(/) });
      }
      const byName = await sender.send(`http://hooks.example.com:${port}/x`, [SECRET], message);
      expect(byName).toMatchObject({ status: null, error: 'blocked address (127.0.0.1)' });
      expect(await sender.send('ftp://hooks.example.com/x', [SECRET], message)).toMatchObject({ status: null, error: expect.stringMatching(/^invalid URL/) });
      expect(seen).toHaveLength(0);
    } finally {
      sender.close();
    }
  });

  it('sends signed JSON (every current secret signs), reads at most 4 KB and does not follow redirects', async () => {
    const sender = new WebhookSender({ allowPrivate: true, maxSockets: 2, resolver: inward });
    try {
      const ok = await sender.send(`http://hooks.example.com:${port}/ok`, [SECRET, OLD_SECRET], message);
      expect(ok).toMatchObject({ status: 200, error: null, response: 'ok' });
      const [got] = seen;
      expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Plink-Webhooks/1', 'webhook-id': message.id });
      expect(got.body).toBe(message.body);
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [SECRET, OLD_SECRET]) expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual(JSON.parse(message.body));

      reply = (url) => (url === '/big' ? { status: 200, body: 'y'.repeat(1_000_000) } : { status: 302, headers: { location: '/ok' } });
      const big = await sender.send(`http://127.0.0.1:${port}/big`, [SECRET], message);
      expect(big.status).toBe(200);
      expect(big.response).toBe('y'.repeat(500));
      expect(MAX_RESPONSE_BYTES).toBe(4_096);

      seen.length = 0;
      const moved = await sender.send(`http://127.0.0.1:${port}/moved`, [SECRET], message);
      expect(moved.status).toBe(302);
      expect(seen.map((s) => s.url)).toEqual(['/moved']);

      const refused = await sender.send('http://127.0.0.1:1/x', [SECRET], message);
      expect(refused).toMatchObject({ status: null, error: 'connection refused' });
    } finally {
      sender.close();
    }
  });

  it('gives up on a connection not made within the connect timeout, sooner than on an answer that does not come', async () => {
    // A host whose name never resolves stands for one that takes no connection: both count against the connect limit.
    const silent: Resolver = () => new Promise(() => undefined);
    const sender = new WebhookSender({ allowPrivate: true, maxSockets: 2, resolver: silent, connectTimeoutMs: 300, responseTimeoutMs: 5_000 });
    const answering = new WebhookSender({ allowPrivate: true, maxSockets: 2, resolver: inward, connectTimeoutMs: 300, responseTimeoutMs: 800 });
    try {
      const unreachable = await sender.send(`http://hooks.example.com:${port}/x`, [SECRET], message);
      expect(unreachable).toMatchObject({ status: null, error: 'connect timeout after 0.3 s', timedOut: true });
      expect(unreachable.durationMs).toBeLessThan(1_500);

      // Connected at once, then no answer: the response limit applies, not the connect one.
      const mute = createServer((req) => req.resume());
      await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
      const mutePort = (mute.address() as AddressInfo).port;
      const slow = await answering.send(`http://hooks.example.com:${mutePort}/slow`, [SECRET], message);
      mute.closeAllConnections();
      mute.close();
      expect(slow).toMatchObject({ status: null, error: 'timeout after 0.8 s', timedOut: true });
      expect(slow.durationMs).toBeGreaterThanOrEqual(750);
    } finally {
      sender.close();
      answering.close();
    }
  });
});
