/** The command line's progress line: drawn on a terminal, nothing at all otherwise. */
import { describe, expect, it } from 'vitest';
import { progressLine } from './progress';
import type { Progress } from '../workers/types';

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { written: string[] } {
  const written: string[] = [];
  return { isTTY, written, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream & { written: string[] };
}

const progress: Progress = { bytesRead: 55_000_000, totalBytes: 110_000_000, blobsDecoded: 790, elements: 10_500_000, blobsReread: 0, elapsedMs: 700 };

describe('progress on stderr', () => {
  it('redraws one line on a terminal, and clears it', () => {
    const err = fakeStream(true);
    let now = 1000;
    const line = progressLine(err, () => now);
    line.update(progress);
    now += 150;
    line.update(progress); // within 200 ms: not drawn again
    now += 100;
    line.update({ ...progress, bytesRead: 110_000_000 });
    line.clear();
    const drawn = '55.0 / 110.0 MB read · 790 blobs · 10,500,000 elements · 15.00 M elements/s';
    expect(err.written).toEqual([`\r\x1b[K${drawn}`, `\r\x1b[K${drawn.replace('55.0', '110.0')}`, '\r\x1b[K']);
  });

  it('writes nothing when stderr is not a terminal', () => {
    const err = fakeStream(false);
    const line = progressLine(err);
    line.update(progress);
    line.clear();
    expect(err.written).toEqual([]);
  });
});
