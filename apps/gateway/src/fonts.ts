import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { CommonMessages } from '@plink/contracts';
import { apiNotFound, type PlainRouteDoc } from '@plink/http';
import { FONTS_PATH, resolveFontFile } from '@plink/page-render';

/** The API reference's entry of {@link serveFonts}. */
export const FONTS_ROUTE_DOC: PlainRouteDoc = {
  method: 'get',
  path: `${FONTS_PATH}/{file}`,
  tag: 'Visitors',
  summary: 'A web font file a landing page uses',
  parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
  ok: { status: 200, description: 'The font (woff2, cached a year)', contentType: 'font/woff2' },
  errors: { 404: CommonMessages.notFound },
};

/**
 * The landing pages' web fonts at `/fonts/{file}`, read from the self-hosted `@fontsource` packages.
 * Only the files of the fonts a creator can choose answer; their names carry font, subset and weight and never
 * change content within a pinned package version, so browsers may keep them for a year.
 */
export function serveFonts(fastify: FastifyInstance): void {
  // `/fonts/` (its trailing slash ignored by the router) names no file: a JSON 404, not the web app.
  fastify.get(FONTS_PATH, { config: { quietAccessLog: true } }, async (_request, reply) => reply.status(404).send(apiNotFound()));
  fastify.get<{ Params: { file: string } }>(`${FONTS_PATH}/:file`, { config: { quietAccessLog: true } }, async (request, reply) => {
    const path = resolveFontFile(request.params.file);
    const size = path ? await stat(path).then((s) => s.size, () => null) : null;
    if (!path || size === null) return reply.status(404).send(apiNotFound());
    return reply
      .header('content-type', 'font/woff2')
      .header('content-length', size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('access-control-allow-origin', '*')
      .send(createReadStream(path));
  });
}
