import { Writable } from 'node:stream';
import { initLogger } from './logger';
import { THROTTLE_INTERVAL_MS, causeOf, resetThrottledLog, warnThrottled } from './throttled-log';

describe('warnThrottled', () => {
  const lines: Record<string, unknown>[] = [];
  beforeAll(() => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    initLogger({ level: 'info', pretty: false, destination });
  });
  beforeEach(() => {
    lines.length = 0;
    resetThrottledLog();
  });

  it('writes one line per source and cause per interval, then says how many it left out', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    const t0 = 1_000_000;
    for (let i = 0; i < 10_000; i += 1) warnThrottled('worker', refused, 'worker problem', {}, t0 + i);
    warnThrottled('worker', new Error("Stream isn't writeable"), 'worker problem', {}, t0 + 5);
    warnThrottled('queue', refused, 'queue problem', {}, t0 + 5);
    expect(warnThrottled('worker', refused, 'worker problem', {}, t0 + THROTTLE_INTERVAL_MS + 1)).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.source, (l.err as { message: string }).message, l.suppressed])).toEqual([
      ['worker', 'connect ECONNREFUSED 127.0.0.1:6379', undefined],
      ['worker', "Stream isn't writeable", undefined],
      ['queue', 'connect ECONNREFUSED 127.0.0.1:6379', undefined],
      ['worker', 'connect ECONNREFUSED 127.0.0.1:6379', 9_999],
    ]);
  });

  it('groups errors by code, or by message without its numbers', () => {
    expect(causeOf(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(causeOf(new Error('queue did not answer within 5000 ms'))).toBe('queue did not answer within # ms');
    expect(causeOf('Redis unreachable')).toBe('Redis unreachable');
  });
});
