import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { appScreenOf } from '@plink/contracts';
import { escapeHtml } from '@plink/page-render';
import { COMPRESS_THRESHOLD_BYTES, SpaShell, apiNotFound, type PlainRouteDoc } from '@plink/http';

/** The <meta> naming the landing pages' origin, read by the SPA to show and copy page links. */
export const PUBLIC_ORIGIN_META = 'plink-public-origin';

/** Where the web build writes the screens it prerenders (`index.html` is `/`, `terms.html` is `/terms`…). */
const PRERENDERED_DIR = 'prerendered';

/**
 * The SPA shell read once from the built index.html, with the landing pages' origin (PUBLIC_ORIGIN) in a
 * <meta> the SPA reads: page links it shows and copies name that host, not the app's. Beside it, the
 * screens the web build prerendered (home, terms, privacy), answered to visitors without a session cookie:
 * they see the page before any JavaScript runs, and the SPA hydrates it. A request with a session cookie
 * gets the bare shell, so a signed-in user is never shown the signed-out page (the app sends them on from
 * `/` to the dashboard).
 */
export class FileSpaShell extends SpaShell {
  private readonly content?: string;
  private readonly prerendered = new Map<string, string>();
  private readonly sessionCookie?: RegExp;

  constructor(distDir: string | undefined, publicOrigin?: string, sessionCookieName?: string) {
    super();
    const withOrigin = (html: string) =>
      publicOrigin ? html.replace('</head>', `<meta name="${PUBLIC_ORIGIN_META}" content="${escapeHtml(publicOrigin)}">\n</head>`) : html;
    const html = distDir ? readFileSync(join(distDir, 'index.html'), 'utf8') : undefined;
    this.content = html && withOrigin(html);
    const dir = distDir && join(distDir, PRERENDERED_DIR);
    if (dir && existsSync(dir)) {
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.html'))) {
        const path = file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`;
        this.prerendered.set(path, withOrigin(readFileSync(join(dir, file), 'utf8')));
      }
    }
    if (sessionCookieName) this.sessionCookie = new RegExp(`(?:^|;\\s*)${sessionCookieName}=[^;\\s]`);
  }

  html(): string | undefined {
    return this.content;
  }

  override htmlFor(path: string, cookieHeader: string | undefined): string | undefined {
    const page = this.prerendered.get(path);
    if (!page || (cookieHeader && this.sessionCookie?.test(cookieHeader))) return this.content;
    return page;
  }
}

/** Where the built SPA is: WEB_DIST_DIR, or apps/web/dist of this checkout. */
export function findWebDist(configured?: string): string | undefined {
  const candidates = configured ? [resolve(configured)] : [resolve(__dirname, '../../web/dist'), resolve(process.cwd(), 'apps/web/dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/**
 * Compresses the app's answers (HTML, JSON, text) for clients that accept it: brotli, else gzip, only from
 * COMPRESS_THRESHOLD_BYTES up, brotli at a quality that costs little CPU per answer. Files the web build
 * compressed already (the SPA's assets) are sent as they are, and so are fonts, images and every streamed answer. Must be
 * registered before the routes it covers.
 */
export async function installCompression(fastify: FastifyInstance): Promise<void> {
  // Streamed answers (the leads' CSV export, files) go as they are: an export is a long download that would
  // hold a compressor for its whole length, and files are precompressed or compressed formats already.
  // The plugin's own switch for that is the request header below; this hook runs before the plugin's.
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (payload instanceof Readable) request.headers['x-no-compression'] = 'stream';
    done(null, payload);
  });
  await fastify.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    // Request bodies stay plain: nothing sends them compressed, and inflating them invites zip bombs.
    globalDecompression: false,
  });
}

/**
 * The API reference's entries of the app's screens worth knowing to a script (the SPA answers them: a
 * one-segment path through the landing pages' `/{slug}` route, which hands reserved slugs to the app).
 */
export const APP_SCREEN_DOCS: PlainRouteDoc[] = [
  {
    method: 'get',
    path: '/verify-email',
    tag: 'App',
    summary: "Where the verification e-mail's link lands",
    description:
      'A page of the app: opening it (in any browser, signed in or not) sends `POST /api/verify-email` with the token and then goes on to the dashboard. Opening the link does not change anything by itself, so a mail scanner that fetches it spends nothing; a script confirms with the POST directly.',
    parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
    ok: { status: 200, description: 'The app', contentType: 'text/html' },
  },
];

/**
 * Serves the built SPA: hashed assets cached a year (immutable) and sent precompressed (the `.br`/`.gz`
 * files the web build writes beside them, with `Content-Encoding` and `Vary: Accept-Encoding`), other
 * files five minutes, and index.html (never cached) for every other GET that is not an API call or a file,
 * so client-side routes survive a reload; a path that is none of the app's screens gets it with a 404.
 * Unknown /api paths and missing files answer a JSON 404.
 */
export async function serveSpa(fastify: FastifyInstance, distDir: string | undefined, shell: SpaShell): Promise<void> {
  if (distDir) {
    await fastify.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The prerendered screens answer at their own paths (with the session rule), the build manifest nowhere.
      allowedPath: (path) => !path.startsWith(`/${PRERENDERED_DIR}/`) && !path.startsWith('/.vite/'),
      setHeaders: (res, path) => {
        const cacheControl = path.endsWith('.html')
          ? 'no-cache'
          : path.includes('/assets/')
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=300';
        void res.header('cache-control', cacheControl);
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
    const html = shell.htmlFor(path, request.headers.cookie);
    if (!html) {
      void reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    // Helmet's headers (the app's CSP, no framing…) are already on this answer. A path that is no screen of
    // the app gets the same document (the app draws "Page Not Found") with a 404 status.
    void reply
      .status(appScreenOf(path) ? 200 : 404)
      .header('cache-control', 'no-cache').header('vary', 'Cookie').type('text/html; charset=utf-8').send(html);
  });
}
