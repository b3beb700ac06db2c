import { RETRY_DELAYS_MS, RetryLaterError, parseRetryAfter, retryDelayMs, webhookBackoff } from './retry-schedule';
import { ENDPOINT_WAIT_MAX_MS, endpointWaitMs, judgeAttempt } from './deliver-webhook.service';

describe('webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the failed attempts 1 to 7 (about 27 h in all)', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, null, middle))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('varies each wait by at most ±10 %', () => {
    expect(retryDelayMs(2, null, () => 0)).toBe(270_000);
    expect(retryDelayMs(2, null, () => 0.999999)).toBe(330_000);
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(1);
      expect(d).toBeGreaterThanOrEqual(4_500);
      expect(d).toBeLessThanOrEqual(5_500);
    }
  });

  it("follows a receiver's Retry-After, at most an hour and at least a second", () => {
    expect(retryDelayMs(1, 8_000)).toBe(8_000);
    expect(retryDelayMs(1, 7_200_000)).toBe(3_600_000);
    expect(retryDelayMs(1, 0)).toBe(1_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(58_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });

  it("BullMQ's backoff takes the delay the worker chose", () => {
    expect(webhookBackoff(1, 'webhook-schedule', new RetryLaterError('500', 8_000))).toBe(8_000);
    const d = webhookBackoff(3, 'webhook-schedule', new Error('database down')) as number;
    expect(d).toBeGreaterThanOrEqual(1_620_000);
    expect(d).toBeLessThanOrEqual(1_980_000);
  });

  it('judges an answer: 2xx delivered; timeouts, network errors, 408, 429, 5xx retried; 410 gone; the rest failed', () => {
    expect([200, 201, 204, 299].map((status) => judgeAttempt({ status }))).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect([null, 408, 429, 500, 502, 503, 504].map((status) => judgeAttempt({ status }))).toEqual(Array(7).fill('retry'));
    expect(judgeAttempt({ status: 410 })).toBe('gone');
    expect([301, 302, 307, 400, 401, 403, 404, 422].map((status) => judgeAttempt({ status }))).toEqual(Array(8).fill('fail'));
  });
});

describe("a lead's delivery waiting for its page's endpoint", () => {
  it('looks again after a quarter of its age: half a second at first, a minute at most', () => {
    expect(endpointWaitMs(0)).toBe(500);
    expect(endpointWaitMs(10_000)).toBe(2_500);
    expect(endpointWaitMs(60_000)).toBe(15_000);
    expect(endpointWaitMs(30 * 60_000)).toBe(60_000);
  });

  it('looks about 80 times in the hour it may wait, not thousands', () => {
    let age = 0;
    let looks = 0;
    while (age < ENDPOINT_WAIT_MAX_MS) {
      age += endpointWaitMs(age);
      looks += 1;
    }
    expect(ENDPOINT_WAIT_MAX_MS).toBe(3_600_000);
    expect(looks).toBeGreaterThan(50);
    expect(looks).toBeLessThan(90);
  });
});
