/** The HTTP helpers: Content-Range (RFC 7233 §4.2), Retry-After (RFC 9110 §10.2.3), backoff. */
import { describe, expect, it } from 'vitest';
import { backoff, parseContentRange, retryAfterMs, sleep } from './http-retry';

describe('parseContentRange', () => {
  it('reads bytes a-b/total and refuses anything else', () => {
    expect(parseContentRange('bytes 0-0/685110')).toEqual([0, 0, 685110]);
    expect(parseContentRange('bytes 4194304-8388607/109739269')).toEqual([4194304, 8388607, 109739269]);
    expect(parseContentRange('BYTES 1-2/3')).toEqual([1, 2, 3]);
    expect(parseContentRange('bytes 0-9/*')).toBeNull(); // unknown total: useless for us
    expect(parseContentRange('bytes */100')).toBeNull();
    expect(parseContentRange(null)).toBeNull();
    expect(parseContentRange('items 0-1/2')).toBeNull();
  });
});

describe('retryAfterMs', () => {
  it('takes seconds or an HTTP date, capped at 30 s, 0 when absent or in the past', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('120')).toBe(30_000);
    expect(retryAfterMs(null)).toBe(0);
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:42 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:30 GMT', now)).toBe(0);
  });
});

describe('backoff', () => {
  it('doubles from the first wait and stops at 8 s', () => {
    const policy = { retries: 6, backoffMs: 200 };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoff(policy, n))).toEqual([200, 400, 800, 1600, 3200, 6400, 8000]);
  });

  it('sleeps can be cut short by a cancel', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
