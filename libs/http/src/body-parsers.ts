import { parse as parseQueryString } from 'node:querystring';
import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { CommonMessages } from '@plink/contracts';
import { ApiError } from './api-exception.filter';

/**
 * The request bodies the API reads, and nothing else (Nest's own parsers are off, see createHttpApp):
 *
 * - JSON, with Fastify's parser, which refuses a `__proto__` key or a `constructor.prototype` (prototype
 *   pollution) instead of keeping them: such a body answers 400 with a message saying so, a body that is
 *   not JSON at all 400 'Malformed JSON in request body'. An empty body is read as no body.
 *   A route with `config.bodyKind: 'raw-json'` (the Stripe webhook) gets the body's text unparsed instead:
 *   its signature covers the exact bytes, and the route parses the text once the signature holds.
 * - urlencoded forms, only for the routes that take a browser form (`config.bodyKind: 'form'`, the no-JS
 *   lead form); any other route answers 415 (the CSRF guard already refuses them before the body is read).
 *   A form field named `__proto__`, `constructor` or `prototype` answers 400 as in JSON.
 * - Fastify's plain-text parser is removed: no call takes text, so a text body answers 415.
 * - multipart forms only reach the routes that read them themselves (`config.bodyKind: 'multipart'`, the
 *   image upload), as the unread stream; any other route answers 415.
 */
export function installBodyParsers(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.config?.bodyKind === 'raw-json') {
      done(null, body);
      return;
    }
    // An empty body under a JSON type (clients that always send the header) is no body: the route then
    // answers as to a call without one, in its own words, instead of the parser's.
    if ((body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (err, value) => {
      // Only when refused: well-formed JSON that the safe parser refused holds a forbidden key.
      if (err && isWellFormedJson(body as string)) done(forbiddenKey(), undefined);
      else done(err, value);
    });
  });
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.config?.bodyKind !== 'form') {
      done(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, CommonMessages.unsupportedMediaType), undefined);
      return;
    }
    const fields = parseQueryString(body as string);
    if (Object.hasOwn(fields, '__proto__') || Object.hasOwn(fields, 'constructor') || Object.hasOwn(fields, 'prototype')) {
      done(forbiddenKey(), undefined);
      return;
    }
    done(null, fields);
  });
  fastify.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    if (request.routeOptions.config?.bodyKind !== 'multipart') {
      done(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, CommonMessages.unsupportedMediaType), undefined);
      return;
    }
    // The route reads the body from the request stream itself.
    done(null, undefined);
  });
}

function isWellFormedJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function forbiddenKey(): ApiError {
  return new ApiError(HttpStatus.BAD_REQUEST, CommonMessages.forbiddenKey);
}
