import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CommonMessages } from '@plink/contracts';
import { isDatabaseUnavailableError } from '@plink/data';
import { getLogger, warnThrottled } from '@plink/observability';
import { SERVICE_UNAVAILABLE_MESSAGE, isRedisUnavailableError } from '@plink/redis';

/** Fastify's and JSON.parse's words for a body that is not JSON. */
const FASTIFY_JSON_ERROR = /not valid JSON|in JSON at position|Unexpected token|Unexpected end of JSON/;

/** Maps any error to the API's JSON shape `{ message }` with a fitting status. */
export function toApiError(err: unknown): { status: number; message: string; headers?: Record<string, string> } {
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const body = err.getResponse();
    let message: string = err.message;
    if (typeof body === 'string') message = body;
    else if (body && typeof body === 'object' && 'message' in body) {
      const m = (body as { message: unknown }).message;
      message = Array.isArray(m) ? m.join(', ') : String(m);
    }
    const headers = (err as HttpException & { headers?: Record<string, string> }).headers;
    if (status === 400 && FASTIFY_JSON_ERROR.test(message)) message = CommonMessages.malformedJson;
    return { status, message, headers };
  }
  // A call that needs Redis while it is away: a quick 503 the client may retry (logged at a bounded rate).
  if (isRedisUnavailableError(err)) {
    warnThrottled('http', err, 'request answered 503: Redis unreachable');
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: SERVICE_UNAVAILABLE_MESSAGE, headers: { 'retry-after': '5' } };
  }
  // PostgreSQL away (a restart, a failover): the same 503. What the request wrote may or may not have been
  // committed, so it must be safe to send again: the writes a visitor repeats (a lead) are idempotent.
  if (isDatabaseUnavailableError(err)) {
    warnThrottled('http', err, 'request answered 503: database unreachable');
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: SERVICE_UNAVAILABLE_MESSAGE, headers: { 'retry-after': '5' } };
  }
  const fastifyCode = (err as { code?: string } | null)?.code;
  const statusCode = (err as { statusCode?: number } | null)?.statusCode;
  switch (fastifyCode) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: CommonMessages.bodyTooLarge };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: CommonMessages.unsupportedMediaType };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: CommonMessages.malformedJson };
  }
  if (statusCode === 400 && (err instanceof SyntaxError || FASTIFY_JSON_ERROR.test((err as Error).message ?? ''))) {
    return { status: 400, message: CommonMessages.malformedJson };
  }
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, message: (err as Error).message || CommonMessages.invalidRequest };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: CommonMessages.internal };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, message, headers } = toApiError(exception);
    if (status >= 500 && status !== HttpStatus.SERVICE_UNAVAILABLE) getLogger().error({ err: exception }, 'request failed');
    if (headers) reply.headers(headers);
    void reply.status(status).send({ message });
  }
}

/** An HTTP error that also sets headers (e.g. Retry-After on a 429). */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    public readonly headers?: Record<string, string>,
  ) {
    super({ message }, status);
  }
}

export function tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(HttpStatus.TOO_MANY_REQUESTS, message, { 'retry-after': String(retryAfterSeconds) });
}
