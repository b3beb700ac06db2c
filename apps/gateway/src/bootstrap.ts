import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { MikroORM } from '@mikro-orm/postgresql';
import { ApiExceptionFilter, PinoNestLogger, installHttpEdge, type AppConfig } from '@plink/platform';
import { GatewayModule } from './gateway.module';
import { findWebDist, serveSpa } from './spa';

/** JSON bodies above this are refused with 413 (uploads have their own limit). */
export const JSON_BODY_LIMIT = 100 * 1024;

/** Builds the gateway application (not yet listening). */
export async function createGateway(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: JSON_BODY_LIMIT, trustProxy: config.trustProxy, return503OnClosing: true });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  installHttpEdge(fastify, app.get(MikroORM));
  await app.register(fastifyCookie);
  app.useGlobalFilters(new ApiExceptionFilter());
  await serveSpa(fastify, findWebDist(config.webDistDir));
  await app.init();
  return app;
}
