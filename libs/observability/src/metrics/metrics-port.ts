import { createServer, type Server } from 'node:http';
import { mayReadMetrics, renderMetrics } from './metrics';

/**
 * `GET /metrics` on a port of its own (the gateway's HEALTH_PORT), for a scraper inside the network: judged on
 * the connection's peer address, never a forwarded header, so it may answer private addresses in production
 * too (as a worker's health port does) while the gateway's public port needs METRICS_TOKEN. Publish only
 * the public port. Anything else on this port is 404.
 */
export async function listenMetricsPort(port: number, host: string, token: string | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics' && mayReadMetrics(req.socket.remoteAddress, req.headers.authorization, token)) {
      void renderMetrics().then(({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(body);
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Not found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
