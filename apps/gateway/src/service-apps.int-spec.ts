import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@plink/config';
import { SmtpCatcher, createTestEnvironment, freePort, type TestEnvironment, eventually } from '@plink/testing';
import { createGateway } from './bootstrap';
import { TestBrowser } from './testing/http-client';

const ROOT = join(__dirname, '../../..');
const SERVICES = ['identity', 'pages', 'leads', 'billing', 'notifications'];

/**
 * Each service app, run alone as an operator would (node apps/<service>/dist/main.js): it boots,
 * applies its migrations, answers /health, and stops cleanly on SIGTERM.
 */
describe('service apps run alone', () => {
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await createTestEnvironment({ LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await env?.cleanup();
  });

  function startService(service: string, port: number, extraEnv: Record<string, string> = {}) {
    const output: string[] = [];
    const child: ChildProcess = spawn(process.execPath, [join(ROOT, `apps/${service}/dist/main.js`)], {
      cwd: ROOT,
      env: { ...process.env, ...env.vars, NODE_ENV: 'production', HEALTH_PORT: String(port), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => output.push(String(d)));
    child.stderr!.on('data', (d) => output.push(String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, output, exited };
  }

  it('delivers the gateway\'s jobs from a separate notifications process (the production shape)', async () => {
    const smtp = await SmtpCatcher.start();
    const gateway: NestFastifyApplication = await createGateway(loadConfig({ ...env.vars, PLINK_WORKERS: 'none' }));
    const notificationsPort = await freePort();
    const notifications = startService('notifications', notificationsPort, { SMTP_URL: smtp.url });
    try {
      await gateway.listen({ port: 0, host: '127.0.0.1' });
      const origin = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
      const b = new TestBrowser(origin);
      expect((await b.post('/api/register', { username: 'split_mode', email: 'split@example.com', password: 'secret12' })).status).toBe(201);
      const mail = await smtp.waitFor((m) => m.to.includes('split@example.com'), 20_000);
      expect(mail.text).toContain('http://plink.test/verify-email?token=');

      // What an operator's Prometheus reads from each process (here from 127.0.0.1, a private address).
      const gatewayMetrics = await fetch(`${origin}/metrics`);
      expect(gatewayMetrics.status).toBe(200);
      expect(gatewayMetrics.headers.get('content-type')).toContain('text/plain');
      // The mail reaches the SMTP server a moment before the worker marks its job completed.
      const text = await eventually(async () => {
        const body = await (await fetch(`${origin}/metrics`)).text();
        return /^plink_queue_jobs\{queue="email",state="completed"\} 1$/m.test(body) && body;
      });
      expect(text).toMatch(/^plink_http_request_duration_seconds_count\{method="POST",route="\/api\/register",status="201"\} 1$/m);
      expect(text).toMatch(/^plink_queue_jobs\{queue="email",state="completed"\} 1$/m);
      expect(text).toMatch(/^plink_outbox_rows 0$/m);
      expect(text).toMatch(/^plink_outbox_oldest_seconds 0$/m);
      expect(text).toMatch(/^plink_process_resident_memory_bytes \d+/m);
      const worker = await (await fetch(`http://127.0.0.1:${notificationsPort}/metrics`)).text();
      expect(worker).toMatch(/^plink_jobs_finished_total\{queue="email",job="email.verification",result="completed"\} 1$/m);
      expect(worker).toMatch(/^plink_job_wait_seconds_count\{queue="email",job="email.verification"\} 1$/m);
      expect(worker).toMatch(/^plink_job_run_seconds_count\{queue="email",job="email.verification",result="completed"\} 1$/m);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- notifications output ---\n${notifications.output.join('').slice(-4000)}`, { cause: err });
    } finally {
      notifications.child.kill('SIGTERM');
      await notifications.exited;
      await gateway.close();
      await smtp.stop();
    }
  }, 40_000);

  it.each(SERVICES)('%s boots, reports health and stops cleanly', async (service) => {
    const port = await freePort();
    const { child, output, exited } = startService(service, port);
    try {
      let health: { status: number; body: any } | undefined;
      const deadline = Date.now() + 20_000;
      while (!health && Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/health`)
          .then(async (r) => ({ status: r.status, body: await r.json() }))
          .catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', service, checks: { database: 'up', redis: 'up' } } });
      const live = await fetch(`http://127.0.0.1:${port}/health/live`);
      expect({ status: live.status, body: await live.json() }).toMatchObject({ status: 200, body: { status: 'ok', service } });
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { status: 'ok', checks: { redis: 'up' } } });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const log = output.join('');
      expect(log).toContain(`"msg":"${service} stopped"`);
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}\n--- ${service} output ---\n${output.join('').slice(-4000)}`, { cause: err });
    }
  }, 40_000);
});
