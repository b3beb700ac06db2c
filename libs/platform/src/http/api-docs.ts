import { RequestMethod, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { CommonMessages } from '@plink/contracts';

/** The messages an error status can carry: one, or several. */
export type ApiErrorTexts = string | readonly string[];

export interface ApiDocOptions {
  /** One line: what the call does. */
  summary: string;
  /** More, in Markdown (rules, limits, side effects). */
  description?: string;
  /** The JSON request body: the same zod schema that validates it (bad input answers 400 with its message). */
  body?: z.ZodType;
  /**
   * The successful answer. A zod schema describes a JSON body (status: the route's `@HttpCode`, else 200, or
   * 201 for POST); `{ contentType }` an answer that is not JSON (a CSV file, an HTML page); `{ status }` alone
   * an answer with no body (a redirect).
   */
  ok?: z.ZodType | { status?: number; schema?: z.ZodType; contentType?: string; description?: string; headers?: Record<string, string> };
  /** Error answers by status, with the exact messages each may carry (the body is always `{ message }`). */
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

    const decorators: Array<MethodDecorator | ClassDecorator> = [ApiOperation({ summary: options.summary, description: options.description })];
    const errors: Partial<Record<number, ApiErrorTexts>> = { ...options.errors };
    if (options.body) {
      decorators.push(ApiConsumes('application/json'), ApiBody({ required: true, schema: requestJsonSchema(options.body) as never }));
      // A body the schema refuses: the first problem's message (the field's own text where it has one).
      if (!errors[400]) errors[400] = CommonMessages.invalidRequest;
    }
    const description = ok?.description ?? STATUS_TEXT[status] ?? 'OK';
    const headers = ok?.headers && Object.fromEntries(Object.entries(ok.headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }]));
    if (ok?.contentType) decorators.push(ApiProduces(ok.contentType));
    if (ok?.schema) decorators.push(ApiResponse({ status, standardSchema: ok.schema, description, headers }));
    else if (ok?.contentType) decorators.push(ApiResponse({ status, description, headers, content: { [ok.contentType]: { schema: { type: 'string' } } } }));
    else decorators.push(ApiResponse({ status, description, headers }));
    decorators.push(ApiErrors(errors));
    applyDecorators(...decorators)(target, key, descriptor);
  };
}
