import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@plink/config';
import { API_DOCS_JSON_PATH, API_DOCS_PATH, createApiDocument, createDocumentApp } from './openapi';

/** The repository's root (this file runs from apps/gateway/src or apps/gateway/dist). */
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
/** The committed copy of the reference, written by `npm run build`. */
export const OPENAPI_FILE = join(REPO_ROOT, 'docs', 'openapi.json');

/** The version the reference states: the product's (the root package.json's). */
export function productVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The document as the file holds it (and as /api/docs/openapi.json answers it): two-space JSON, newline at the end. */
export function renderApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The reference of the gateway's code without running it (no database, Redis or SMTP needed), as the build
 * writes it. The configuration only has to be valid: nothing in the reference depends on it.
 */
export async function generateApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({ DATABASE_URL: 'postgres://plink@127.0.0.1:5432/plink', REDIS_URL: 'redis://127.0.0.1:6379' });
  const app = await createDocumentApp(config);
  try {
    return createApiDocument(app, productVersion());
  } finally {
    await app.close();
  }
}

/**
 * `GET /api/docs`: the reference as a page (swagger-ui, served from the `swagger-ui-dist` package, so nothing
 * comes from another host and the app's Content-Security-Policy holds: its scripts are files, never inline);
 * `GET /api/docs/openapi.json`: the document. The document is made on the first request, not at boot. Call
 * before `app.init()`.
 */
export function serveApiDocs(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  let json: string | undefined;
  const build = () => (document ??= createApiDocument(app, productVersion()));
  SwaggerModule.setup(API_DOCS_PATH, app, build, {
    raw: false,
    customSiteTitle: 'Plink API reference',
    swaggerOptions: { docExpansion: 'list', defaultModelsExpandDepth: 0 },
  });
  const fastify = app.getHttpAdapter().getInstance() as import('fastify').FastifyInstance;
  fastify.get(API_DOCS_JSON_PATH, (_request, reply) => reply.type('application/json; charset=utf-8').send((json ??= renderApiDocument(build()))));
}
