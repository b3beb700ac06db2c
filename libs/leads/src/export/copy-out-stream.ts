import { to as copyTo, type CopyToStreamQuery } from 'pg-copy-streams';

/** Protocol codes of the messages a COPY TO STDOUT answer may carry (PostgreSQL frontend/backend protocol). */
const COPY_DATA = 0x64; // d
const ERROR_RESPONSE = 0x45; // E
/** Messages the server may put between CopyData messages: skipped. Anything else (CopyDone) ends the COPY. */
const INTERSPERSED = new Set([0x48 /* H CopyOutResponse */, 0x53 /* S ParameterStatus */, 0x4e /* N Notice */, 0x41 /* A Notification */]);

/** The parts of pg-copy-streams' (7.0.0) CopyToStreamQuery that the parser below hands back to. */
interface CopyToInternals {
  _buffer: { push(chunk: Buffer): void };
  _detach(): void;
  _cleanup(): void;
}

const CopyToStream = Object.getPrototypeOf(copyTo('')).constructor as new (text: string) => CopyToStreamQuery;

/**
 * pg-copy-streams' COPY TO stream with a leaner parser. The library's parser makes several small Buffers
 * for every row (the server sends one CopyData message per row), which for a million-row export is
 * millions of short-lived objects and a gateway RSS growing by ~100 MB. This one moves each socket
 * chunk's row data to the chunk's front, over the message headers, and pushes that part of the chunk:
 * no allocation at all, whatever the row count.
 * Everything else (taking the connection's socket over, giving it back to `pg` at the end or on an
 * error, back-pressure) is the library's own; its private methods are used as pinned (7.0.0), and the
 * export tests check the exact text, errors and aborts.
 */
export class LeanCopyToStream extends CopyToStream {
  /** The 5-byte header (code, length) of the message being read, maybe split across chunks. */
  private readonly header = Buffer.alloc(5);
  private headerLength = 0;
  private code = 0;
  /** Body bytes of the current message still to come. */
  private remaining = 0;

  /** Called by the library with each chunk read from the connection; returns whether to read more now. */
  _parse(chunk: Buffer): boolean {
    const internals = this as unknown as CopyToInternals;
    // The row data is moved to the front of the chunk itself (never past what is still to be read).
    let written = 0;
    const flush = () => (written > 0 ? this.push(chunk.subarray(0, written)) : true);
    let i = 0;
    while (i < chunk.length) {
      if (this.headerLength < 5) {
        if (this.headerLength === 0 && chunk[i] === ERROR_RESPONSE) {
          // The statement failed: `pg` reads the error from here on and reports it to the query (this stream).
          internals._buffer.push(chunk.subarray(i));
          flush();
          internals._detach();
          return false;
        }
        const n = Math.min(5 - this.headerLength, chunk.length - i);
        chunk.copy(this.header, this.headerLength, i, i + n);
        this.headerLength += n;
        i += n;
        if (this.headerLength < 5) break;
        this.code = this.header[0];
        this.remaining = this.header.readUInt32BE(1) - 4;
      }
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        if (this.code === COPY_DATA) written += chunk.copy(chunk, written, i, i + n);
        this.remaining -= n;
        i += n;
        if (this.remaining > 0) break;
      }
      // A whole message has been read.
      this.headerLength = 0;
      if (this.code !== COPY_DATA && !INTERSPERSED.has(this.code)) {
        // CopyDone: what follows (CommandComplete, ReadyForQuery) is `pg`'s again.
        if (i < chunk.length) internals._buffer.push(chunk.subarray(i));
        flush();
        internals._detach();
        this.push(null);
        internals._cleanup();
        return false;
      }
    }
    return flush();
  }
}
