import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CommonMessages, EMBED_SCRIPT_MAX_AGE_S, EMBED_SCRIPT_PATH, EMBED_VERSIONED_DIR } from '@plink/contracts';
import { PrecompressedDocument, apiNotFound, sendPrecompressed, type PlainRouteDoc } from '@plink/http';

/** The API reference's entries of {@link serveEmbedScript}. */
export const EMBED_SCRIPT_DOCS: PlainRouteDoc[] = [
  {
    method: 'get',
    path: EMBED_SCRIPT_PATH,
    tag: 'Visitors',
    summary: "The embed script: a page's form on another site",
    description: `Paste \`<script async src="{PUBLIC_ORIGIN}${EMBED_SCRIPT_PATH}" data-plink-page="{slug}"></script>\`; \`data-mode\` (\`popup\`, \`slide-in\`) and \`data-trigger\` (\`delay:10\`, \`scroll:50\`, \`exit\`) open it over the page. Cached ${EMBED_SCRIPT_MAX_AGE_S / 60} minutes, so a fix reaches visitors soon.`,
    ok: { status: 200, description: 'The script', contentType: 'text/javascript' },
    errors: { 404: CommonMessages.notFound },
  },
  {
    method: 'get',
    path: `${EMBED_VERSIONED_DIR}/{file}`,
    tag: 'Visitors',
    summary: 'The embed script under its versioned name (`{hash}.js`, cached a year)',
    parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
    ok: { status: 200, description: 'The script', contentType: 'text/javascript' },
    errors: { 404: CommonMessages.notFound },
  },
];

const SCRIPT_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'x-content-type-options': 'nosniff',
  // Any site loads it (a <script> from another origin): no CORP same-origin, and CORS for a crossorigin tag.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

/**
 * The embed script (built by the web app into dist/embed/embed.js), kept in memory compressed once: at
 * `/embed.js` with a short cache (the snippet creators paste; a fix reaches visitors within
 * EMBED_SCRIPT_MAX_AGE_S), and at `/embed/{first 12 hex of its SHA-256}.js`, immutable for a year.
 * Without a built web app both answer 404.
 */
export function serveEmbedScript(fastify: FastifyInstance, distDir: string | undefined): void {
  let text: string | undefined;
  try {
    text = distDir ? readFileSync(join(distDir, 'embed', 'embed.js'), 'utf8') : undefined;
  } catch {
    text = undefined;
  }
  const document = text === undefined ? undefined : PrecompressedDocument.of(text);
  const versioned = text === undefined ? undefined : `${createHash('sha256').update(text).digest('hex').slice(0, 12)}.js`;
  const options = { config: { quietAccessLog: true, compress: false } } as const;
  fastify.get(EMBED_SCRIPT_PATH, options, (request, reply) => {
    if (!document) return reply.status(404).send(apiNotFound());
    return sendPrecompressed(request, reply.headers(SCRIPT_HEADERS).header('cache-control', `public, max-age=${EMBED_SCRIPT_MAX_AGE_S}`), document);
  });
  fastify.get<{ Params: { file: string } }>(`${EMBED_VERSIONED_DIR}/:file`, options, (request, reply) => {
    if (!document || request.params.file !== versioned) return reply.status(404).send(apiNotFound());
    return sendPrecompressed(request, reply.headers(SCRIPT_HEADERS).header('cache-control', 'public, max-age=31536000, immutable'), document);
  });
}
