import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyContextConfig } from 'fastify';
import { DECORATORS, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { z } from 'zod';
import { API_TOKEN_REQUESTS_PER_MINUTE, ApiTokenMessages, CommonMessages, IdentityMessages, apiErrorSchema } from '@plink/contracts';
import { SESSION_COOKIE } from '@plink/identity';
import { METRICS_ROUTE_DOC } from '@plink/platform';
import { ApiTokenGuard, SignedInGuard, UPLOADS_ROUTE_DOC, errorMessagesOf, errorResponse, requestJsonSchema, type PlainRouteDoc } from '@plink/http';
import type { AppConfig } from '@plink/config';
import { AUTH_ALIAS_DOCS } from '../auth-aliases';
import { FONTS_ROUTE_DOC } from '../fonts';
import { GatewayModule } from '../gateway.module';
import { QUEUE_DASHBOARD_DOC } from '../queue-dashboard';
import { APP_SCREEN_DOCS } from '../spa';

/** Where the reference is served: the HTML page, and the document itself. */
export const API_DOCS_PATH = '/api/docs';
export const API_DOCS_JSON_PATH = '/api/docs/openapi.json';

const SESSION_SCHEME = 'session';
const TOKEN_SCHEME = 'apiToken';
const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);
type Schemas = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
type Operation = Record<string, any>; // OpenAPI operation objects

/** Texts of the introduction: how a client signs in and what every call may answer. */
const API_DESCRIPTION = [
  'The HTTP API of Plink: what the app itself uses, for scripts and automation tools.',
  '',
  `**Signing in.** \`POST /api/register\` or \`POST /api/login\` sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax); send it back on every call marked with the lock. \`POST /api/logout\` ends it. A call without a live session answers 401 '${IdentityMessages.notSignedIn}'.`,
  '',
  `**API tokens.** The versioned calls under \`/api/v1\` (for automation tools: Zapier, Make, n8n, scripts) take \`Authorization: Bearer plk_…\`, a token made in Settings → API tokens (\`POST /api/tokens\` with the session), and never the session cookie. A missing, wrong or revoked token answers 401 '${ApiTokenMessages.invalidToken}'; a token may make ${API_TOKEN_REQUESTS_PER_MINUTE} requests a minute, then 429 with \`Retry-After\`.`,
  '',
  "**Requests.** Bodies are JSON (`Content-Type: application/json`, at most 100 KB); a state-changing call (POST, PUT, DELETE) with another body type answers 415. A browser may send those calls only from the app's own origin: one whose `Sec-Fetch-Site` or `Origin` names another site gets 403. A client that sends neither header (curl, a server) is not a browser and passes; it needs no CSRF token.",
  '',
  "**Answers.** JSON. A body that fails validation answers 400 with the message of its first failing field (e.g. 'Please enter a valid email'). Every error is `{ \"message\": \"…\" }` in the words the app shows; 429 answers carry `Retry-After` (seconds). API answers are never cached (`Cache-Control: no-store`).",
  '',
  'This document is generated from the code (the routes and the shared zod schemas that validate requests and describe answers); it is also at `/api/docs/openapi.json` on every Plink server and in the repository as `docs/openapi.json`.',
].join('\n');

/**
 * The routes the gateway adds to Fastify itself, outside Nest's controllers (and so outside the document
 * @nestjs/swagger makes), each described beside its registration. The API docs test checks that every route
 * the gateway serves is in the reference, so a plain route left out of this list does not go unnoticed.
 */
const PLAIN_ROUTES: PlainRouteDoc[] = [
  UPLOADS_ROUTE_DOC,
  FONTS_ROUTE_DOC,
  METRICS_ROUTE_DOC,
  QUEUE_DASHBOARD_DOC,
  ...AUTH_ALIAS_DOCS,
  ...APP_SCREEN_DOCS,
];

/** The OpenAPI document's order of sections in the reference. */
const TAGS = [
  { name: 'Account', description: 'Registration, sign-in, e-mail verification and passwords' },
  { name: 'Pages', description: "A creator's landing pages" },
  { name: 'Leads', description: "A page's sign-ups: stats and CSV export" },
  { name: 'API v1', description: 'The versioned API for automation tools, with an API token (`Authorization: Bearer plk_…`)' },
  { name: 'API tokens', description: 'Settings → API tokens and Automations (with the session)' },
  { name: 'Webhooks', description: "A Pro page's webhook to automation tools (`lead.created`, Standard Webhooks signatures)" },
  { name: 'Billing', description: 'The Pro plan and its Stripe subscription' },
  { name: 'Visitors', description: "What a page's visitors reach: the page, its form, its files" },
  { name: 'App', description: "Addresses of the app's screens worth knowing" },
  { name: 'Operations', description: 'Health checks and metrics' },
];

/**
 * The API reference of this gateway as an OpenAPI 3 document: @nestjs/swagger reads the Nest controllers
 * (routes and their `@ApiDoc`), then what the routes themselves say is added — a session guard makes a call
 * need the session cookie, a state-changing call gets the refusals the HTTP edge gives every such call —
 * and the plain Fastify routes come from their declarations (PLAIN_ROUTES). Deterministic: paths sorted, no
 * server URL.
 */
export function createApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Plink API')
    .setDescription(API_DESCRIPTION)
    .setVersion(version)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by POST /api/login or /api/register' }, SESSION_SCHEME)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'plk_…', description: 'An API token made in Settings → API tokens (POST /api/tokens); /api/v1 only' }, TOKEN_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, { autoTagControllers: false });
  const { signedIn, tokenAuth, rawJson } = handlerFacts(app);

  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      // Error answers in one form (what @nestjs/swagger made of @ApiDoc's, for every media type the route produces).
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Operation>)) {
        const messages = Number(status) >= 400 ? errorMessagesOf(response) : null;
        if (messages) operation.responses[status] = errorResponse(Number(status), messages);
      }
      if (signedIn.has(operation.operationId)) requireSession(operation);
      if (tokenAuth.has(operation.operationId)) requireToken(operation);
      if (STATE_CHANGING.has(method)) addEdgeRefusals(operation, path, rawJson.has(operation.operationId));
    }
  }
  for (const plain of PLAIN_ROUTES) {
    const item = (document.paths[plain.path] ??= {}) as Record<string, Operation>;
    // A plain route is not in Nest's document: a controller route there under the same call is described twice.
    if (item[plain.method]) throw new Error(`${plain.method.toUpperCase()} ${plain.path} is described twice: by its controller and by a plain route's entry`);
    item[plain.method] = plainOperation(plain, document);
  }

  document.tags = TAGS;
  document.components = { ...document.components, schemas: sortKeys({ ...document.components?.schemas, ...(componentOf(apiErrorSchema) as Schemas) }) };
  document.paths = sortKeys(document.paths);
  return document;
}

/**
 * The Nest application the reference is read from when nothing runs (the build writes docs/openapi.json
 * with it): the gateway's modules in Nest's preview mode, which maps controllers and routes without creating
 * any provider, so no database, Redis or mail server is needed.
 */
export async function createDocumentApp(config: AppConfig): Promise<INestApplication> {
  return NestFactory.create(GatewayModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
}

/**
 * operationIds of the handlers behind the session guard, and of those that take their JSON body as its exact
 * text (`bodyKind: 'raw-json'`, never parsed by the edge). A handler's id is the one its `@ApiDoc` states,
 * else @nestjs/swagger's default (`<Controller>_<method>`), as in the document.
 */
function handlerFacts(app: INestApplication): { signedIn: Set<string>; tokenAuth: Set<string>; rawJson: Set<string> } {
  const signedIn = new Set<string>();
  const tokenAuth = new Set<string>();
  const rawJson = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const guards = (target: object) => (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? [];
      const guarded = (target: object) => guards(target).includes(SignedInGuard);
      const byToken = (target: object) => guards(target).includes(ApiTokenGuard);
      const onClass = guarded(controller);
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const stated = (Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as { operationId?: string } | undefined)?.operationId;
        const operationId = stated ?? `${controller.name}_${key}`;
        if (onClass || guarded(handler)) signedIn.add(operationId);
        if (byToken(controller) || byToken(handler)) tokenAuth.add(operationId);
        const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as FastifyContextConfig | undefined;
        if (config?.bodyKind === 'raw-json') rawJson.add(operationId);
      }
    }
  }
  return { signedIn, tokenAuth, rawJson };
}

function requireToken(operation: Operation): void {
  operation.security = [{ [TOKEN_SCHEME]: [] }];
  addError(operation, 401, ApiTokenMessages.invalidToken);
  addError(operation, 429, ApiTokenMessages.tooManyRequests);
}

function requireSession(operation: Operation): void {
  operation.security = [{ [SESSION_SCHEME]: [] }];
  addError(operation, 401, IdentityMessages.notSignedIn);
}

/**
 * What installCsrfDefence and the body parsers answer any state-changing call, before its handler runs. A body
 * taken as its exact text (`rawJson`, a signed webhook) is not parsed there, so it is never 'Malformed JSON'.
 */
function addEdgeRefusals(operation: Operation, path: string, rawJson: boolean): void {
  const form = !!operation.requestBody?.content?.['application/x-www-form-urlencoded'] || !path.startsWith('/api/');
  const multipart = !!operation.requestBody?.content?.['multipart/form-data'];
  addError(operation, 403, CommonMessages.crossSiteRequest);
  if (!multipart) addError(operation, 415, form ? CommonMessages.unsupportedFormMediaType : CommonMessages.unsupportedMediaType);
  if (operation.requestBody && !multipart) {
    if (!rawJson) addError(operation, 400, CommonMessages.malformedJson);
    addError(operation, 413, CommonMessages.bodyTooLarge);
  }
}

/** Adds a message to an error status of the operation (the status is created when missing). */
function addError(operation: Operation, status: number, message: string): void {
  operation.responses ??= {};
  const messages = errorMessagesOf(operation.responses[status]) ?? [];
  if (messages.includes(message)) return;
  operation.responses[status] = errorResponse(status, [...messages, message]);
}

function plainOperation(plain: PlainRouteDoc, document: OpenAPIObject): Operation {
  const operation: Operation = {
    operationId: `${plain.method}_${plain.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'root'}`,
    summary: plain.summary,
    ...(plain.description ? { description: plain.description } : {}),
    tags: [plain.tag],
    parameters: plain.parameters ?? [],
  };
  if (plain.body) operation.requestBody = { required: true, content: { [plain.body.contentType]: { schema: requestJsonSchema(plain.body.schema) } } };
  const headers = plain.ok.headers && Object.fromEntries(Object.entries(plain.ok.headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }]));
  const okSchema = plain.ok.schema && responseSchema(plain.ok.schema, document);
  const okType = plain.ok.contentType ?? (okSchema ? 'application/json' : undefined);
  operation.responses = {
    [plain.ok.status]: {
      description: plain.ok.description,
      ...(headers ? { headers } : {}),
      ...(okType ? { content: { [okType]: { schema: okSchema ?? { type: 'string' } } } } : {}),
    },
  };
  for (const [status, texts] of Object.entries(plain.errors ?? {})) {
    for (const message of typeof texts === 'string' ? [texts] : (texts ?? [])) addError(operation, Number(status), message);
  }
  return operation;
}

/** A response schema by reference, its named parts added to the document's components. */
function responseSchema(schema: z.ZodType, document: OpenAPIObject): Record<string, unknown> {
  const components = componentOf(schema);
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...(components as Schemas) } };
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : (components.__root as Record<string, unknown>);
}

/** The component schemas of a zod schema with an id (and of every schema with an id it holds). */
function componentOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' }) as Record<string, any>;
  const id = z.globalRegistry.get(schema)?.id;
  const { $schema: _s, $defs, definitions, ...root } = json;
  const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"#\/(?:\$defs|definitions)\//g, '"#/components/schemas/'));
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries({ ...$defs, ...definitions } as Record<string, unknown>)) out[name] = rewrite(def);
  // A schema with an id is its own definition, referenced from the root.
  if (!(id && out[id] && Object.keys(root).length === 1 && root.$ref)) out[id ?? '__root'] = rewrite(root);
  return out;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
