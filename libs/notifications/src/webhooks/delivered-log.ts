import { MESSAGES_KEPT_PER_PAGE, type AttemptRecord } from './webhook-log.repository';

/** A delivered message's log line waits at most this long to be written with the others. */
export const DELIVERED_LOG_WINDOW_MS = 200;
/** Lines waiting past this many are written at once. */
const MAX_WAITING = 5_000;

/**
 * The log lines of delivered messages, written together at most {@link DELIVERED_LOG_WINDOW_MS} after the
 * attempt (the job is done once the receiver has the message; its line follows). A page's log keeps its 100
 * newest messages, so of the new messages waiting for one page only the 100 newest are written: under a
 * burst on one page (a creator's launch) the others would be written only to be trimmed. Measured with
 * `npm run bench` (webhook part, one page): see docs/performance.md, Benchmarks.
 *
 * A failure or a retry is logged at once, not here (the failure checks read the log: they call
 * {@link flush} first). A stopping process writes what waits ({@link close}); a crash loses at most the lines
 * of that moment, never a lead or a webhook. A write that fails is tried again with the next lines.
 */
export class DeliveredLog {
  private waiting: AttemptRecord[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private direct = false;

  constructor(
    private readonly write: (records: AttemptRecord[]) => Promise<void>,
    private readonly onError: (err: unknown, lines: number) => void,
  ) {}

  add(record: AttemptRecord): void {
    this.waiting.push(record);
    if (this.direct || this.waiting.length >= MAX_WAITING) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), DELIVERED_LOG_WINDOW_MS);
  }

  /** Writes the lines waiting now (after a write under way); resolves once they are written (or failed). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const records = newestPerPage(this.waiting, MESSAGES_KEPT_PER_PAGE);
    this.waiting = [];
    if (records.length === 0) return this.writing;
    this.writing = this.writing
      .then(() => this.write(records))
      .catch((err: unknown) => {
        this.onError(err, records.length);
        if (this.waiting.length + records.length <= MAX_WAITING) {
          this.waiting.unshift(...records);
          this.timer ??= setTimeout(() => void this.flush(), DELIVERED_LOG_WINDOW_MS);
        }
      });
    return this.writing;
  }

  /** Writes what waits; from then on each line is written as it comes (the process is stopping). */
  async close(): Promise<void> {
    this.direct = true;
    await this.flush();
  }
}

/**
 * The lines worth writing: every line of a message already logged (its new state), and per page the `keep`
 * newest new messages (by creation), the older ones being past what the page's log keeps.
 */
export function newestPerPage(records: readonly AttemptRecord[], keep: number): AttemptRecord[] {
  const byPage = new Map<number, AttemptRecord[]>();
  for (const record of records) {
    if (record.message.logged) continue;
    const list = byPage.get(record.message.pageId);
    if (list) list.push(record);
    else byPage.set(record.message.pageId, [record]);
  }
  const dropped = new Set<AttemptRecord>();
  for (const list of byPage.values()) {
    if (list.length <= keep) continue;
    list.sort((a, b) => createdMs(b) - createdMs(a));
    for (const record of list.slice(keep)) dropped.add(record);
  }
  return dropped.size === 0 ? [...records] : records.filter((record) => !dropped.has(record));
}

const createdMs = (record: AttemptRecord) => record.message.createdAt?.getTime() ?? record.attempt.at.getTime();
