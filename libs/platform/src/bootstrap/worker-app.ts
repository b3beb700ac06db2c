import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { setPriority } from 'node:os';
import { type DynamicModule, type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, describeConfig, type AppConfig } from '@plink/config';
import type { ServiceSchema } from '@plink/data';
import { HealthService } from '../health/health.service';
import { getLogger, initLogger, PinoNestLogger, mayReadMetrics, renderMetrics } from '@plink/observability';
import { PlatformModule } from '../platform.module';
import { stopOnSignals } from './graceful-stop';
import { assertNodeVersion } from './node-version';

export interface WorkerAppOptions {
  /** The service's name, as in logs and health answers. */
  service: string;
  /** The service's worker module (its BullMQ processors). */
  workerModule: Type<unknown> | DynamicModule;
  /**
   * The service's own database schema: the worker migrates and opens this one and `platform` (the outbox),
   * nothing else. What it needs of another service comes in its jobs' payloads or from a read model it keeps
   * in this schema; asking the ORM for another schema's entity fails (see ForeignSchemaError). The gateway
   * and `plink migrate` handle every schema.
   */
  schema: ServiceSchema;
  /** Port of the /health endpoint when HEALTH_PORT is not set. */
  defaultHealthPort: number;
}

/** Builds the Nest application context of one service's workers, over that service's schema and `platform` only. */
export async function createWorkerContext(options: WorkerAppOptions, config: AppConfig): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot({ config, schemas: [options.schema] }), options.workerModule] })
  class WorkerRootModule {}
  return NestFactory.createApplicationContext(WorkerRootModule, { logger: new PinoNestLogger(), abortOnError: false });
}

/**
 * Runs one service alone (production shape): its processors, health endpoints (`/health/live`, and
 * `/health/ready` = `/health`), Prometheus metrics (`/metrics`), and a clean stop on SIGTERM/SIGINT within a bounded time (workers finish
 * their current jobs, connections close; see stopOnSignals).
 */
export async function runWorkerApp(options: WorkerAppOptions): Promise<void> {
  assertNodeVersion();
  const config = loadConfig();
  initLogger({ level: config.logLevel, pretty: config.env === 'development', name: options.service });
  const log = getLogger();
  log.info({ config: describeConfig(config) }, `${options.service} starting`);
  if (config.workerNiceness > 0) lowerPriority(config.workerNiceness, log);

  let app: INestApplicationContext;
  try {
    app = await createWorkerContext(options, config);
  } catch (err) {
    log.fatal({ err }, `${options.service} failed to start`);
    process.exit(1);
  }
  await app.init();

  const health = app.get(HealthService);
  const port = config.healthPort ?? options.defaultHealthPort;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health/live') {
      send(200, health.live(options.service));
      return;
    }
    if (req.method === 'GET' && (path === '/health' || path === '/health/ready' || path === '/')) {
      void health.report(options.service).then((report) => send(report.status === 'ok' ? 200 : 503, report));
      return;
    }
    if (req.method === 'GET' && path === '/metrics' && mayReadMetrics(req.socket.remoteAddress, req.headers.authorization, config.metricsToken)) {
      void renderMetrics().then(({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      });
      return;
    }
    send(404, { message: 'Not found' });
  });
  server.listen(port, () => log.info({ port }, `${options.service} ready; health on /health, /health/live and /health/ready`));

  // The health server answers during the stop (readiness 'draining', 503) and closes last.
  stopOnSignals(
    log,
    options.service,
    async () => {
      await app.close();
      server.close();
      server.closeAllConnections();
    },
    config.shutdownGraceMs,
  );
}

/**
 * WORKER_NICENESS: on a host shared with gateways, a worker app can give way to them when the CPU is short
 * (its jobs then wait during a burst of requests and catch up after it; nothing changes when the CPU is free).
 * Set on the process's main thread, where its JavaScript runs, and inherited by the threads it starts later.
 */
function lowerPriority(niceness: number, log: ReturnType<typeof getLogger>): void {
  try {
    setPriority(niceness);
    log.info({ niceness }, 'scheduling priority lowered (WORKER_NICENESS)');
  } catch (err) {
    log.warn({ niceness, err }, 'could not lower the scheduling priority (WORKER_NICENESS)');
  }
}
