import type { FastifyInstance, FastifyReply } from 'fastify';
import { CommonMessages } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { assertSafeKey, type Storage } from '@plink/storage';
import type { PlainRouteDoc } from './api-docs';

/** Upload keys are never reused (each upload gets a new random key), so a browser may keep a file for good. */
export const UPLOADS_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Content types shown in the browser; anything else (never stored by the upload call) is sent as a download. */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/x-icon', 'image/vnd.microsoft.icon']);

/** The API reference's entry of {@link serveUploads}. */
export const UPLOADS_ROUTE_DOC: PlainRouteDoc = {
  method: 'get',
  path: '/uploads/{key}',
  tag: 'Visitors',
  summary: 'An uploaded image',
  description: 'Cached a year (immutable): a new upload always gets a new key.',
  parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'As in the `imageUrl` an upload answered' }],
  ok: { status: 200, description: 'The image', contentType: 'image/*' },
  errors: { 404: CommonMessages.notFound },
};

/**
 * `GET`/`HEAD /uploads/{key}`: the stored uploads, read through the Storage port (the local folder or the
 * S3 bucket alike), with their stored content type and length, cached for a year (immutable). A missing
 * object or a key the port would refuse (`..`, `\`, `%2e%2e`, an absolute path, …) is a 404 before any
 * I/O. Belt and braces for what a browser does with the file: `nosniff`, and a CSP that forbids scripts
 * and sandboxes the document should one ever be opened directly.
 *
 * Register before the SPA fallback (`/*`); being more specific, this route wins over it either way.
 */
export function serveUploads(fastify: FastifyInstance, storage: Storage): void {
  // `/uploads/` (its trailing slash ignored by the router) names no file: the same JSON 404, not the web app.
  fastify.route({ method: ['GET', 'HEAD'], url: '/uploads', config: { quietAccessLog: true }, handler: async (_request, reply) => notFound(reply) });
  fastify.route<{ Params: { '*': string } }>({
    method: ['GET', 'HEAD'],
    url: '/uploads/*',
    // Visitor traffic (images on landing pages): only failures and slow answers are logged.
    config: { quietAccessLog: true },
    handler: async (request, reply) => {
      const key = request.params['*'] ?? '';
      // Account exports share the store but are private: only `GET /api/account/export/{id}` serves them.
      if (!isSafeKey(key) || key.startsWith('exports/')) return notFound(reply);
      let object;
      try {
        object = await storage.get(key);
      } catch (err) {
        getLogger().error({ err, key }, 'upload could not be read');
        return reply.status(500).header('cache-control', 'no-store').send({ message: CommonMessages.internal });
      }
      if (!object) return notFound(reply);
      const contentType = object.contentType.split(';')[0].trim().toLowerCase();
      void reply
        .status(200)
        .header('content-type', object.contentType)
        .header('content-length', String(object.size))
        .header('cache-control', UPLOADS_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      if (!INLINE_TYPES.has(contentType)) void reply.header('content-disposition', 'attachment');
      if (request.method === 'HEAD') {
        destroy(object.body);
        return reply.send();
      }
      return reply.send(object.body);
    },
  });
}

function isSafeKey(key: string): boolean {
  try {
    assertSafeKey(key);
    return true;
  } catch {
    return false;
  }
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.status(404).header('cache-control', 'no-cache').send({ message: CommonMessages.notFound });
}

function destroy(body: NodeJS.ReadableStream): void {
  const stream = body as NodeJS.ReadableStream & { destroy?: () => void };
  if (typeof stream.destroy === 'function') stream.destroy();
  else body.resume();
}
