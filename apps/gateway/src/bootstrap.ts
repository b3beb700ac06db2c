import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@plink/platform';
import { JobQueue } from '@plink/queue';
import { SpaShell, installSecurityHeaders, serveUploads } from '@plink/http';
import { Storage } from '@plink/storage';
import type { AppConfig } from '@plink/config';
import { serveApiDocs } from './api-docs/api-docs';
import { serveAuthAliases } from './auth-aliases';
import { GatewayModule } from './gateway.module';
import { serveFonts } from './fonts';
import { serveEmbedScript } from './embed-script';
import { installQueueDashboard } from './queue-dashboard';
import { findWebDist, installCompression, serveSpa } from './spa';

/** Builds and initialises the gateway application (not yet listening). */
export async function createGateway(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule.forRoot(config), config);
  // First, so every route added below (and Nest's, at init) gets its headers.
  await installSecurityHeaders(app.getHttpAdapter().getInstance(), config);
  // Before the routes: it attaches itself to each route as it is added.
  await installCompression(app.getHttpAdapter().getInstance());
  serveFonts(app.getHttpAdapter().getInstance());
  serveEmbedScript(app.getHttpAdapter().getInstance(), findWebDist(config.webDistDir));
  serveUploads(app.getHttpAdapter().getInstance(), app.get(Storage));
  serveAuthAliases(app.getHttpAdapter().getInstance());
  serveApiDocs(app);
  await installQueueDashboard(app.getHttpAdapter().getInstance(), config, app.get(JobQueue));
  await serveSpa(app.getHttpAdapter().getInstance(), findWebDist(config.webDistDir), app.get(SpaShell));
  await app.init();
  return app;
}
