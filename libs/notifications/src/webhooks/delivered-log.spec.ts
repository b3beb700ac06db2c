import { setTimeout as sleep } from 'node:timers/promises';
import { DELIVERED_LOG_WINDOW_MS, DeliveredLog, newestPerPage } from './delivered-log';
import type { AttemptRecord } from './webhook-log.repository';

let n = 0;
/** A delivered message's line: a new message of `pageId` made `ageMs` ago, or (logged) one already in the log. */
function line(pageId: number, ageMs: number, logged = false): AttemptRecord {
  n += 1;
  const createdAt = new Date(Date.now() - ageMs);
  return {
    message: { id: `msg_${n}`, pageId, leadId: n, eventType: 'lead.created', test: false, body: '{}', status: 'pending', logged, createdAt },
    attempt: { url: 'https://hooks.example/x', status: 200, error: null, durationMs: 3, response: '', retryAfter: undefined, at: new Date() },
    outcome: { status: 'delivered', nextAttemptAt: null },
  };
}

describe('newestPerPage (the delivered messages worth logging)', () => {
  it('keeps every line when no page has more new messages than its log keeps', () => {
    const lines = [line(1, 5), line(2, 4), line(1, 3)];
    expect(newestPerPage(lines, 2)).toEqual(lines);
  });

  it('keeps a page’s newest new messages only, and every line of a message already logged', () => {
    const old = line(1, 300);
    const newest = line(1, 100);
    const newer = line(1, 200);
    const retried = line(1, 900, true);
    const otherPage = line(2, 999);
    expect(newestPerPage([old, newest, retried, newer, otherPage], 2)).toEqual([newest, retried, newer, otherPage]);
  });
});

describe('DeliveredLog (delivered messages logged together)', () => {
  it('writes the lines of a moment together, within the window', async () => {
    const writes: AttemptRecord[][] = [];
    const log = new DeliveredLog(async (records) => void writes.push(records), () => undefined);
    const [a, b] = [line(1, 2), line(1, 1)];
    log.add(a);
    log.add(b);
    expect(writes).toEqual([]);
    await sleep(DELIVERED_LOG_WINDOW_MS + 50);
    expect(writes).toEqual([[a, b]]);
  });

  it('writes at once on flush, and after close every line as it comes', async () => {
    const writes: AttemptRecord[][] = [];
    const log = new DeliveredLog(async (records) => void writes.push(records), () => undefined);
    const a = line(1, 1);
    log.add(a);
    await log.flush();
    expect(writes).toEqual([[a]]);
    await log.close();
    const b = line(1, 0);
    log.add(b);
    await log.flush();
    expect(writes).toEqual([[a], [b]]);
  });

  it('tries a failed write again with the next lines, and reports the failure', async () => {
    const writes: AttemptRecord[][] = [];
    const failures: number[] = [];
    let down = true;
    const log = new DeliveredLog(
      async (records) => {
        if (down) throw new Error('database away');
        writes.push(records);
      },
      (_err, lines) => failures.push(lines),
    );
    const a = line(1, 2);
    log.add(a);
    await log.flush();
    expect(failures).toEqual([1]);
    down = false;
    const b = line(1, 1);
    log.add(b);
    await log.flush();
    expect(writes).toEqual([[a, b]]);
  });
});
