import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers on a path: a status (and headers, body), or 'hang' (never answers). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 standing in for a creator's automation tool: it records every request and
 * answers each path as the test tells it (a queue of answers per path, then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly plans = new Map<string, ReceiverAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  origin = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        receiver.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const answer = receiver.plans.get(path)?.shift() ?? { status: 200, body: 'ok' };
        if (answer === 'hang') {
          receiver.hanging.add(res);
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      });
    });
    receiver.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.origin = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** The next answers on `path` (each used once, in order; 200 afterwards). */
  answer(path: string, ...answers: ReceiverAnswer[]): void {
    this.plans.set(path, [...(this.plans.get(path) ?? []), ...answers]);
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
