/** The pace of a run's reports to the page: nothing in its first second (longer when the read is about to end), then progress twice a second while reading, then once a second. */
import { describe, expect, it } from 'vitest';
import { changesInterval, ProgressPace, progressInterval, QUIET_START_MAX_MS, QUIET_START_MS, readEndsWithin } from './report-pace';
import type { Progress } from './types';

const progress = (elapsedMs: number, bytesRead: number, totalBytes: number): Progress => ({ bytesRead, totalBytes, blobsDecoded: 0, elements: 0, blobsReread: 0, elapsedMs });

/** The times (ms) at which reports offered every 100 ms from `from` to `to` are sent. */
function sentTimes(pace: ProgressPace, from: number, to: number, make: (t: number) => Progress): number[] {
  const sent = [];
  for (let t = from; t <= to; t += 100) if (pace.offer(make(t), t)) sent.push(t);
  return sent;
}

describe('progressInterval', () => {
  it('is half a second while the file is read, in the first 5 s', () => {
    expect(progressInterval(progress(1000, 10, 100))).toBe(500);
  });

  it('is a second after 5 s, and once the last byte is read', () => {
    expect(progressInterval(progress(5000, 10, 100))).toBe(1000);
    expect(progressInterval(progress(1000, 100, 100))).toBe(1000);
  });

  it('reads a file of unknown size (a server that sent no length) as still being read', () => {
    expect(progressInterval(progress(1000, 10, NaN))).toBe(500);
  });
});

describe('ProgressPace', () => {
  it('holds every report of the quiet start, and gives the last one once, as it ends', () => {
    const pace = new ProgressPace();
    expect(sentTimes(pace, 0, QUIET_START_MS - 1, (t) => progress(t, t, 2000))).toEqual([]);
    expect(pace.quietGoesOn(QUIET_START_MS)).toBe(false);
    expect(pace.takeHeld(QUIET_START_MS)).toEqual(progress(900, 900, 2000));
    expect(pace.takeHeld(QUIET_START_MS + 1)).toBeNull();
  });

  it('then sends a report at most every half second while reading, every second after the last byte', () => {
    const pace = new ProgressPace();
    pace.quietGoesOn(QUIET_START_MS);
    expect(sentTimes(pace, 1000, 2400, (t) => progress(t, t, 3000))).toEqual([1000, 1500, 2000]);
    expect(sentTimes(pace, 2500, 4500, (t) => progress(t, 3000, 3000))).toEqual([3000, 4000]);
  });

  it('keeps the pace from the held report it gave', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(900, 1, 100), 900)).toBe(false);
    expect(pace.quietGoesOn(1000)).toBe(false);
    expect(pace.takeHeld(1000)).toEqual(progress(900, 1, 100));
    expect(pace.offer(progress(1200, 2, 100), 1200)).toBe(false);
    expect(pace.offer(progress(1500, 3, 100), 1500)).toBe(true);
  });

  it('gives nothing held once a later report was sent, nor when none came', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(900, 1, 100), 900)).toBe(false);
    pace.quietGoesOn(1000);
    expect(pace.offer(progress(1100, 2, 100), 1100)).toBe(true);
    expect(pace.takeHeld(1150)).toBeNull();
    expect(new ProgressPace().takeHeld(1000)).toBeNull();
  });

  it('keeps twice a second for a file of unknown size', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(900, 900, NaN), 900)).toBe(false);
    expect(pace.quietGoesOn(QUIET_START_MS)).toBe(false);
    expect(sentTimes(pace, 1000, 2400, (t) => progress(t, t, NaN))).toEqual([1000, 1500, 2000]);
  });

  it('stays quiet past its second while the read is about to end, and holds what comes meanwhile', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(900, 95, 100), 900)).toBe(false);
    expect(pace.quietGoesOn(QUIET_START_MS)).toBe(true);
    expect(pace.offer(progress(1100, 99, 100), 1100)).toBe(false);
    expect(pace.quietGoesOn(1200)).toBe(true);
    expect(pace.takeHeld(1200)).toEqual(progress(1100, 99, 100));
  });

  it('ends its quiet at its second when the read is far from its end, and by QUIET_START_MAX_MS in any case', () => {
    const farFromEnd = new ProgressPace();
    farFromEnd.offer(progress(900, 50, 100), 900);
    expect(farFromEnd.quietGoesOn(QUIET_START_MS)).toBe(false);
    expect(farFromEnd.offer(progress(1000, 55, 100), 1000)).toBe(true);
    const nearEnd = new ProgressPace();
    nearEnd.offer(progress(1900, 100, 100), 1900);
    expect(nearEnd.quietGoesOn(QUIET_START_MAX_MS - 100)).toBe(true);
    expect(nearEnd.quietGoesOn(QUIET_START_MAX_MS)).toBe(false);
    expect(new ProgressPace().quietGoesOn(QUIET_START_MS)).toBe(false);
  });
});

describe('readEndsWithin', () => {
  it('is the time the bytes left take at the pace so far', () => {
    expect(readEndsWithin(progress(1000, 80, 100))).toBe(250);
    expect(readEndsWithin(progress(1000, 100, 100))).toBe(0);
  });

  it('is Infinity before the first byte, and for a file of unknown size', () => {
    expect(readEndsWithin(progress(1000, 0, 100))).toBe(Infinity);
    expect(readEndsWithin(progress(1000, 50, NaN))).toBe(Infinity);
  });
});

describe('changesInterval', () => {
  it('starts at a second and grows with the answer', () => {
    expect(changesInterval(0)).toBe(1000);
    expect(changesInterval(100_000)).toBe(2000);
  });
});
