import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '@plink/page-render';
import { SpaShell, apiNotFound } from '@plink/platform';

/** The <meta> naming the landing pages' origin, read by the SPA to show and copy page links. */
export const PUBLIC_ORIGIN_META = 'plink-public-origin';

/**
 * The SPA shell read once from the built index.html, with the landing pages' origin (PUBLIC_ORIGIN) in a
 * <meta> the SPA reads: page links it shows and copies name that host, not the app's.
 */
export class FileSpaShell extends SpaShell {
  private readonly content?: string;
  constructor(distDir: string | undefined, publicOrigin?: string) {
    super();
    const html = distDir ? readFileSync(join(distDir, 'index.html'), 'utf8') : undefined;
    this.content =
      html && publicOrigin
        ? html.replace('</head>', `<meta name="${PUBLIC_ORIGIN_META}" content="${escapeHtml(publicOrigin)}">\n</head>`)
        : html;
  }
  html(): string | undefined {
    return this.content;
  }
}

/** Where the built SPA is: WEB_DIST_DIR, or apps/web/dist of this checkout. */
export function findWebDist(configured?: string): string | undefined {
  const candidates = configured ? [resolve(configured)] : [resolve(__dirname, '../../web/dist'), resolve(process.cwd(), 'apps/web/dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/**
 * Serves the built SPA: hashed assets with long-lived caching, and index.html (never cached) for
 * every other GET that is not an API call or a file, so client-side routes survive a reload.
 * Unknown /api paths and missing files answer a JSON 404.
 */
export async function serveSpa(fastify: FastifyInstance, distDir: string | undefined, shell: SpaShell): Promise<void> {
  const indexHtml = shell.html();
  if (distDir) {
    await fastify.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      },
    });
  }
  // The lowest-priority route: anything more specific (API, assets) wins over it.
  fastify.get('/*', (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/api' || path.startsWith('/api/') || /\.[a-z0-9]{1,8}$/i.test(path)) {
      void reply.status(404).send(apiNotFound());
      return;
    }
    if (!indexHtml) {
      void reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    // Helmet's headers (the app's CSP, no framing…) are already on this answer.
    void reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
