import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { type DynamicModule, type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, describeConfig, type AppConfig } from '../config/config.schema';
import type { ServiceSchema } from '../database/service-schema';
import { HealthService } from '../health/health.service';
import { getLogger, initLogger } from '../logging/logger';
import { PinoNestLogger } from '../logging/nest-logger';
import { PlatformModule } from '../platform.module';
import { assertNodeVersion } from './node-version';

export interface WorkerAppOptions {
  /** The service's name, as in logs and health answers. */
  service: string;
  /** The service's worker module (its BullMQ processors). */
  workerModule: Type<unknown> | DynamicModule;
  /** Database schemas the service needs (its own, and any it reads through another service's API). */
  schemas: ServiceSchema[];
  /** Port of the /health endpoint when HEALTH_PORT is not set. */
  defaultHealthPort: number;
}

/** Builds the Nest application context of one service's workers. */
export async function createWorkerContext(options: WorkerAppOptions, config: AppConfig): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot({ config, schemas: options.schemas }), options.workerModule] })
  class WorkerRootModule {}
  return NestFactory.createApplicationContext(WorkerRootModule, { logger: new PinoNestLogger(), abortOnError: false });
}

/**
 * Runs one service alone (production shape): its processors, a /health endpoint, and a clean
 * stop on SIGTERM/SIGINT (workers finish their current jobs, connections close).
 */
export async function runWorkerApp(options: WorkerAppOptions): Promise<void> {
  assertNodeVersion();
  const config = loadConfig();
  initLogger({ level: config.logLevel, pretty: config.env === 'development', name: options.service });
  const log = getLogger();
  log.info({ config: describeConfig(config) }, `${options.service} starting`);

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
    if (req.method === 'GET' && (req.url === '/health' || req.url === '/')) {
      void health.report(options.service).then((report) => {
        res.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify(report));
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Not found' }));
  });
  server.listen(port, () => log.info({ port }, `${options.service} ready; health on /health`));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${options.service} stopping`);
    server.close();
    await app.close();
    log.info(`${options.service} stopped`);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
