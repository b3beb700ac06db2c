import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { BlockedAddressError, guardedLookup, hostOf, isBlockedAddress, isWebhookScheme, type Resolver } from '@plink/net';

/** An attempt gives up after this long (connecting, sending and the answer together): WEBHOOK_RESPONSE_TIMEOUT_MS's default. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt whose connection is not made (DNS and TCP) within this long gives up: WEBHOOK_CONNECT_TIMEOUT_MS's default. */
export const CONNECT_TIMEOUT_MS = 3_000;
/** At most this much of an answer's body is read; the rest is dropped. */
export const MAX_RESPONSE_BYTES = 4_096;
/** The delivery log keeps this much of the body. */
export const RESPONSE_EXCERPT_CHARS = 500;
export const USER_AGENT = 'Plink-Webhooks/1';

export interface SignedMessage {
  /** `msg_…`: the same on every attempt of one message. */
  id: string;
  body: string;
}

export interface AttemptResult {
  url: string;
  /** The HTTP status, or null when there was no answer (see `error`). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The first characters of the answer's body (at most {@link RESPONSE_EXCERPT_CHARS}). */
  response: string | null;
  retryAfter: string | undefined;
  at: Date;
  /** No answer in time: the connection was not made, or the answer did not come (see `error`). */
  timedOut?: boolean;
}

/** The Standard Webhooks headers of one attempt: every current secret signs (space-separated signatures). */
export function signatureHeaders(message: SignedMessage, secrets: string[], at: Date): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(message.id, at, message.body)).join(' ');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

export interface SenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: inward addresses allowed (development and tests only). */
  allowPrivate: boolean;
  /** Connections kept open per receiver host (the worker's concurrency). */
  maxSockets: number;
  /** A stub resolver in tests; the system's otherwise. */
  resolver?: Resolver;
  /** The whole attempt's limit ({@link ATTEMPT_TIMEOUT_MS} when left out). */
  responseTimeoutMs?: number;
  /** The connection's limit, resolving the host included ({@link CONNECT_TIMEOUT_MS} when left out). */
  connectTimeoutMs?: number;
}

/**
 * Sends one signed attempt: POST with the JSON body, 10 s in all (3 s to connect: a receiver that takes no
 * connections is given up on sooner than one that is slow to answer), redirects not followed (a 3xx is an answer
 * like any other, and a failure), at most 4 KB of the answer read. The connection goes only to an address the
 * outbound rule allows, judged on the address actually connected to (resolved once, see guardedLookup). Never
 * throws: every outcome is an {@link AttemptResult}.
 */
export class WebhookSender {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private readonly lookup: ReturnType<typeof guardedLookup>;
  private readonly responseTimeoutMs: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: SenderOptions) {
    this.responseTimeoutMs = options.responseTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.connectTimeoutMs = Math.min(options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, this.responseTimeoutMs);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: Math.min(options.maxSockets, 50) };
    this.httpAgent = new HttpAgent(agentOptions);
    this.httpsAgent = new HttpsAgent(agentOptions);
    this.lookup = guardedLookup({ allowPrivate: options.allowPrivate, resolver: options.resolver });
  }

  async send(url: string, secrets: string[], message: SignedMessage): Promise<AttemptResult> {
    const at = new Date();
    const started = performance.now();
    const done = (partial: Partial<AttemptResult>): AttemptResult => ({
      url,
      status: null,
      error: null,
      response: null,
      retryAfter: undefined,
      ...partial,
      at,
      durationMs: Math.round(performance.now() - started),
    });
    if (!URL.canParse(url) || !isWebhookScheme(new URL(url))) return done({ error: 'invalid URL: only http and https URLs with a host' });
    const target = new URL(url);
    const host = hostOf(target);
    if (isIP(host) !== 0 && !this.options.allowPrivate && isBlockedAddress(host)) return done({ error: new BlockedAddressError(host).message });
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'content-length': String(Buffer.byteLength(message.body)),
      ...signatureHeaders(message, secrets, at),
    };
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(connectTimer);
        resolve(result);
      };
      const https = target.protocol === 'https:';
      const req = (https ? httpsRequest : httpRequest)(
        target,
        { method: 'POST', headers, agent: https ? this.httpsAgent : this.httpAgent, lookup: this.lookup },
        (res) => {
          readLimited(res).then(
            (body) =>
              finish(
                done({
                  status: res.statusCode ?? null,
                  response: body.slice(0, RESPONSE_EXCERPT_CHARS),
                  retryAfter: headerValue(res.headers['retry-after']),
                }),
              ),
            (err: Error) => finish(done({ status: res.statusCode ?? null, error: describeError(err) })),
          );
        },
      );
      const giveUp = (error: string) => {
        finish(done({ error, timedOut: true }));
        req.destroy();
      };
      const timer = setTimeout(() => giveUp(`timeout after ${this.responseTimeoutMs / 1000} s`), this.responseTimeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) return; // a kept-alive connection
        connectTimer = setTimeout(() => giveUp(`connect timeout after ${this.connectTimeoutMs / 1000} s`), this.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('error', (err) => finish(done({ error: describeError(err) })));
      req.end(message.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** Reads the body up to {@link MAX_RESPONSE_BYTES}, then stops reading (the socket is dropped). */
function readLimited(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      if (size >= MAX_RESPONSE_BYTES) return;
      chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
      size += chunk.length;
      if (size >= MAX_RESPONSE_BYTES) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        res.destroy();
      }
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', (err) => (size >= MAX_RESPONSE_BYTES ? undefined : reject(err)));
    res.on('aborted', () => reject(new Error('connection closed before the answer ended')));
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A short, log-safe reason: blocked address, DNS failure, refused, reset… */
function describeError(err: Error): string {
  if (err instanceof BlockedAddressError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ENOTFOUND: 'DNS error: the host was not found',
    EAI_AGAIN: 'DNS error: the host could not be resolved now',
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection timed out',
    EPROTO: 'TLS error',
    CERT_HAS_EXPIRED: 'TLS error: certificate expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS error: self-signed certificate',
    ERR_TLS_CERT_ALTNAME_INVALID: 'TLS error: certificate does not match the host',
  };
  if (code && known[code]) return known[code];
  return (code ? `${code}: ` : '') + err.message.slice(0, 200);
}
