import type { FastifyRequest } from 'fastify';

/** What an answered request may still send before its connection is dropped. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
export const DRAIN_MAX_MS = 5_000;

/**
 * For an answer sent before the request body was read to its end (refused upload, 401, …): the rest of
 * the body is read and thrown away, so the client, still sending, gets to read the answer and the
 * connection can serve its next request. But only up to {@link DRAIN_MAX_BYTES} or {@link DRAIN_MAX_MS}:
 * then the connection is dropped, so a huge or endless body costs neither bandwidth nor a socket for long.
 */
export function drainAtMost(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  let drained = 0;
  // The multipart parser pauses the request when it lets go of it (unpipe), possibly after this call.
  const keepFlowing = () => {
    if (!raw.destroyed) raw.resume();
  };
  const done = () => {
    clearTimeout(timer);
    raw.off('data', onData);
    raw.off('pause', keepFlowing);
    raw.off('end', done);
    raw.off('close', done);
  };
  const drop = () => {
    done();
    raw.socket?.destroy();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) drop();
  };
  const timer = setTimeout(drop, DRAIN_MAX_MS);
  timer.unref();
  raw.on('data', onData);
  raw.on('pause', keepFlowing);
  raw.once('end', done);
  raw.once('close', done);
  raw.resume();
}
