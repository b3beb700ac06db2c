import { RequestMethod, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { CommonMessages } from '@plink/contracts';

/** The messages an error status can carry: one, or several. */
export type ApiErrorTexts = string | readonly string[];

/** A JSON Schema (OpenAPI 3.0 dialect) written out, for what no zod schema describes. */
type JsonSchema = Record<string, unknown>;

export interface ApiDocOptions {
  /** One line: what the call does. */
  summary: string;
  /** More, in Markdown (rules, limits, side effects). */
  description?: string;
  /**
   * The request body: the zod schema that validates a JSON body (bad input answers 400 with its message), or,
   * for a body no zod schema checks (a multipart file, a signed webhook's exact text), its media type and JSON
   * Schema.
   */
  body?: z.ZodType | { contentType: string; schema: JsonSchema };
  /**
   * The successful answer. A zod schema describes a JSON body (status: the route's `@HttpCode`, else 200, or
   * 201 for POST), as does a JSON Schema where no zod schema does; `{ contentType }` an answer that is not
   * JSON (a CSV file, an HTML page); `{ status }` alone an answer with no body (a redirect).
   */
  ok?: z.ZodType | { status?: number; schema?: z.ZodType | JsonSchema; contentType?: string; description?: string; headers?: Record<string, string> };
  /** Error answers by status, with the exact messages each may carry (the body is always `{ message }`). */
  errors?: Partial<Record<number, ApiErrorTexts>>;
  /**
   * The operation's id in the reference, where it is not @nestjs/swagger's `<Controller>_<method>`: clients
   * generated from the document name their calls by it, so a call published under another id keeps that one
   * (renaming the handler or its controller must not rename the call).
   */
  operationId?: string;
}

/**
 * The API reference's entry for a plain Fastify route, one added to the Fastify instance rather than by a Nest
 * controller (Nest's document does not see those): exported beside the route's registration for the gateway's
 * reference to collect. A controller route describes itself with {@link ApiDoc} instead.
 */
export interface PlainRouteDoc {
  method: 'get' | 'post';
  /** OpenAPI path (`{param}`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; description?: string; required?: boolean; schema: JsonSchema }>;
  /** A JSON body, by the zod schema that validates it. */
  body?: { contentType: 'application/json'; schema: z.ZodType };
  /** The successful answer: a JSON body by its zod schema, or another media type (an HTML page, a file). */
  ok: { status: number; description: string; contentType?: string; schema?: z.ZodType; headers?: Record<string, string> };
  errors?: Partial<Record<number, ApiErrorTexts>>;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found (a redirect)',
  303: 'See other (a redirect)',
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests (see `Retry-After`)',
  500: 'Server error',
  503: 'Unavailable',
};

/** The JSON Schema (OpenAPI 3.0 dialect) of what a request must send to pass `schema`. */
export function requestJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Where the reference keeps the error body's schema (`{ message }`, see apiErrorSchema). */
export const API_ERROR_REF = '#/components/schemas/ApiError';

/** An OpenAPI response object for an error status and the messages it may carry (each one an example). */
export function errorResponse(status: number, messages: readonly string[]): Record<string, unknown> {
  const list = messages.map((m) => `'${m}'`).join(', or ');
  const examples =
    messages.length === 1
      ? { example: { message: messages[0] } }
      : messages.length > 1
        ? { examples: Object.fromEntries(messages.map((m, i) => [`message${i + 1}`, { summary: m, value: { message: m } }])) }
        : {};
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}${list ? `: ${list}` : ''}`,
    content: { 'application/json': { schema: { $ref: API_ERROR_REF }, ...examples } },
  };
}

/** The messages an error response documents (its examples), or null when it is not an `{ message }` error. */
export function errorMessagesOf(response: Record<string, unknown> | undefined): string[] | null {
  const content = (response?.content ?? {}) as Record<string, { schema?: { $ref?: string }; example?: { message?: string }; examples?: Record<string, { value?: { message?: string } }> }>;
  const media = Object.values(content)[0];
  if (!media || media.schema?.$ref !== API_ERROR_REF) return null;
  if (media.examples) return Object.values(media.examples).map((e) => e.value?.message ?? '');
  return media.example?.message ? [media.example.message] : [];
}

/** Error answers by status with the messages each may carry (the body is always `{ message }`). */
export function ApiErrors(errors: Partial<Record<number, ApiErrorTexts>>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, texts]) => {
      const messages: readonly string[] = typeof texts === 'string' ? [texts] : (texts ?? []);
      const response = errorResponse(Number(status), messages) as { description: string; content: Record<string, Record<string, unknown>> };
      const { schema: _schema, ...examples } = response.content['application/json'];
      return ApiResponse({ status: Number(status), description: response.description, schema: { $ref: API_ERROR_REF }, ...examples });
    }),
  );
}

/**
 * The API reference's entry for one route (OpenAPI, through @nestjs/swagger): summary, request body and
 * answers, from the shared zod contracts. Whether the call needs a session, and the refusals every
 * state-changing call shares (a cross-site request, a body that is not JSON), are added by the gateway from
 * the route itself, so they are never written here.
 *
 * Put it above the route's other decorators (`@Post`, `@HttpCode`): it reads them to know the success status.
 */
export function ApiDoc(options: ApiDocOptions): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as unknown as object;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (method === undefined) throw new Error(`@ApiDoc on ${String(key)}: put it above the route decorator (@Get, @Post…)`);
    const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    const ok = options.ok instanceof z.ZodType ? { schema: options.ok } : options.ok;
    const status = ok?.status ?? httpCode ?? (method === RequestMethod.POST ? 201 : 200);

    const decorators: Array<MethodDecorator | ClassDecorator> = [ApiOperation({ summary: options.summary, description: options.description, operationId: options.operationId })];
    const errors: Partial<Record<number, ApiErrorTexts>> = { ...options.errors };
    if (options.body instanceof z.ZodType) {
      decorators.push(ApiConsumes('application/json'), ApiBody({ required: true, schema: requestJsonSchema(options.body) as never }));
      // A body the schema refuses: the first problem's message (the field's own text where it has one).
      if (!errors[400]) errors[400] = CommonMessages.invalidRequest;
    } else if (options.body) {
      decorators.push(ApiConsumes(options.body.contentType), ApiBody({ required: true, schema: options.body.schema as never }));
    }
    const description = ok?.description ?? STATUS_TEXT[status] ?? 'OK';
    const headers = ok?.headers && Object.fromEntries(Object.entries(ok.headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }]));
    if (ok?.contentType) decorators.push(ApiProduces(ok.contentType));
    if (ok?.schema instanceof z.ZodType) decorators.push(ApiResponse({ status, standardSchema: ok.schema, description, headers }));
    else if (ok?.schema) decorators.push(ApiResponse({ status, schema: ok.schema as never, description, headers }));
    else if (ok?.contentType) decorators.push(ApiResponse({ status, description, headers, content: { [ok.contentType]: { schema: { type: 'string' } } } }));
    else decorators.push(ApiResponse({ status, description, headers }));
    decorators.push(ApiErrors(errors));
    applyDecorators(...decorators)(target, key, descriptor);
  };
}
