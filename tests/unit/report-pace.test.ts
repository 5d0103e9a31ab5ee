/** The pace of a run's reports to the page: progress twice a second while reading, then once a second; the first one held for the header. */
import { describe, expect, it } from 'vitest';
import { changesInterval, HEADER_WAIT_MS, ProgressPace, progressInterval } from '../../workers/report-pace';
import type { Progress } from '../../workers/types';

const progress = (elapsedMs: number, bytesRead: number, totalBytes: number): Progress => ({ bytesRead, totalBytes, blobsDecoded: 0, elements: 0, blobsReread: 0, elapsedMs });

/** The times (ms) at which reports offered every 100 ms from `from` to `to` are sent. */
function sentTimes(pace: ProgressPace, from: number, to: number, make: (t: number) => Progress): number[] {
  const sent = [];
  for (let t = from; t <= to; t += 100) if (pace.offer(make(t), t, true)) sent.push(t);
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
  it('sends a report at most every half second while reading, every second after the last byte', () => {
    const pace = new ProgressPace();
    expect(sentTimes(pace, 200, 1400, (t) => progress(t, t, 2000))).toEqual([200, 700, 1200]);
    expect(sentTimes(pace, 1500, 3500, (t) => progress(t, 2000, 2000))).toEqual([2200, 3200]);
  });

  it('keeps twice a second for a file of unknown size', () => {
    const pace = new ProgressPace();
    expect(sentTimes(pace, 200, 1400, (t) => progress(t, t, NaN))).toEqual([200, 700, 1200]);
  });

  it('holds the first report until the header is known, and sends it then, once', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(10, 1, 100), 10, false)).toBe(false);
    expect(pace.offer(progress(20, 2, 100), 20, false)).toBe(false);
    expect(pace.takeHeld(30)).toEqual(progress(20, 2, 100));
    expect(pace.takeHeld(31)).toBeNull();
    // The next report keeps the pace from the held one's send.
    expect(pace.offer(progress(300, 3, 100), 300, true)).toBe(false);
    expect(pace.offer(progress(530, 4, 100), 530, true)).toBe(true);
  });

  it('stops holding once the run is older than the wait, header or not', () => {
    const pace = new ProgressPace();
    expect(pace.offer(progress(HEADER_WAIT_MS, 1, 100), 5, false)).toBe(true);
    expect(pace.takeHeld(6)).toBeNull();
  });

  it('sends the first report of a run at once, whatever the clock reads', () => {
    expect(new ProgressPace().offer(progress(0, 0, 100), 0, true)).toBe(true);
  });
});

describe('changesInterval', () => {
  it('starts at a second and grows with the answer', () => {
    expect(changesInterval(0)).toBe(1000);
    expect(changesInterval(100_000)).toBe(2000);
  });
});
