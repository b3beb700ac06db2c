import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Pool } from 'pg';
import { QueueName, UploadUsage } from '@plink/contracts';
import { PlatformModule, createHttpApp } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { PinoNestLogger } from '@plink/observability';
import { SessionLookup, serveUploads } from '@plink/http';
import { Storage } from '@plink/storage';
import { loadConfig, type AppConfig } from '@plink/config';
import { TestClient, TestSignIns, createTestEnvironment, type TestEnvironment, listenOnLoopback, openTestPool } from '@plink/testing';
import { UploadsHttpModule, UploadsWorkerModule } from '../uploads.module';
import { StandInPages } from './stand-in-pages';

export interface Creator {
  id: number;
  client: TestClient;
}

/**
 * The upload call as the gateway mounts it (signed-in creators as real rows of a test session lookup
 * instead of identity, and `/uploads/{key}` served through the Storage port), on a fresh database and
 * Redis prefix. `startWorker()` adds the uploads queue's worker as the pages worker app runs it, told which
 * uploads are in use by {@link StandInPages} (`pages`), which also records what pages sends that queue.
 */
export class UploadsTestApp {
  app!: NestFastifyApplication;
  worker?: INestApplicationContext;
  readonly pages = new StandInPages();
  origin!: string;
  env!: TestEnvironment;
  config!: AppConfig;
  db!: Pool;
  signIns!: TestSignIns;

  static async start(overrides: Record<string, string> = {}): Promise<UploadsTestApp> {
    const t = new UploadsTestApp();
    t.env = await createTestEnvironment({ AUTH_RATE_LIMIT_PER_MINUTE: '0', ...overrides });
    t.config = loadConfig(t.env.vars);
    t.signIns = await TestSignIns.open(t.env.database.url);

    @Global()
    @Module({ providers: [{ provide: SessionLookup, useValue: t.signIns }], exports: [SessionLookup] })
    class SignInsModule {}

    @Module({ imports: [PlatformModule.forRoot({ config: t.config, schemas: [] }), SignInsModule, UploadsHttpModule] })
    class TestGatewayModule {}

    t.app = await createHttpApp(TestGatewayModule, t.config);
    serveUploads(t.app.getHttpAdapter().getInstance(), t.app.get(Storage));
    await t.app.init();
    t.origin = await listenOnLoopback(t.app);
    t.pages.app = t.app;
    t.db = await openTestPool(t.env.database.url);
    return t;
  }

  /**
   * Runs the uploads queue's worker (removing the images pages says it no longer shows, and the scheduled
   * sweep), with `UploadUsage` answered by the stand-in pages, as `apps/pages` runs it beside the pages worker.
   */
  async startWorker(): Promise<INestApplicationContext> {
    this.worker = await this.workerContext();
    await this.worker.init();
    return this.worker;
  }

  /** A worker context of the uploads queue, not started (a test may start a second one). */
  async workerContext(): Promise<INestApplicationContext> {
    const pages = this.pages;

    @Module({ providers: [{ provide: UploadUsage, useValue: pages }], exports: [UploadUsage] })
    class StandInUsageModule {}

    // The uploads service keeps no tables: the worker opens the platform's schema (the outbox) only.
    @Module({ imports: [PlatformModule.forRoot({ config: this.config, schemas: [] }), UploadsWorkerModule.forUsage(StandInUsageModule)] })
    class UploadsWorkerRoot {}

    return NestFactory.createApplicationContext(UploadsWorkerRoot, { logger: new PinoNestLogger(), abortOnError: false });
  }

  /** The uploads queue, as the worker reads it. */
  uploadsQueue() {
    return this.app.get(JobQueue).queue(QueueName.Uploads);
  }

  client(headers: Record<string, string> = {}): TestClient {
    return new TestClient(this.origin, headers);
  }

  /** A creator, signed in; verified unless asked otherwise. */
  async creator(options: { verified?: boolean } = {}): Promise<Creator> {
    const user = await this.signIns.create(options);
    return { id: user.id, client: this.client().setCookies(user.cookie) };
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.app?.close();
    await this.db?.end();
    await this.signIns?.close();
    await this.env?.cleanup();
  }
}

export function imageForm(file: Buffer, filename = 'picture.png', contentType = 'image/png', field = 'image'): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(file)], { type: contentType }), filename);
  return form;
}

export function upload(client: TestClient, type: string, form: FormData) {
  return client.request('POST', `/api/upload-image?type=${type}`, form);
}

export async function servedBytes(origin: string, url: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(origin + url);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
