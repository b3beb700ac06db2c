import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it came over the wire. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (still compressed when Content-Encoding says so). */
  raw: Buffer;
}

/**
 * A request sent as written (fetch would normalise the path and decode the body): the path as given, the
 * headers as given (e.g. a browser's Accept-Encoding), the answer's bytes as sent.
 */
export function rawRequest(origin: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body of an answer, decompressed as its Content-Encoding says. */
export function decodedBody(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(answer.raw).toString('utf8');
  return answer.raw.toString('utf8');
}
