import { describe, expect, it } from 'vitest';
import { satisfiableRange } from './byte-range';

describe('satisfiableRange (RFC 9110 §14.1.2)', () => {
  it('gives the bytes of a satisfiable range, clipped to the file', () => {
    expect(satisfiableRange('bytes=0-9', 100)).toEqual([0, 9]);
    expect(satisfiableRange('bytes=90-', 100)).toEqual([90, 99]);
    expect(satisfiableRange('bytes=90-500', 100)).toEqual([90, 99]);
    expect(satisfiableRange('bytes=-10', 100)).toEqual([90, 99]);
    expect(satisfiableRange('bytes=-500', 100)).toEqual([0, 99]);
    expect(satisfiableRange('bytes=99-99', 100)).toEqual([99, 99]);
  });

  it('refuses what must get a 416', () => {
    for (const bad of ['bytes=5-1', 'bytes=99999999-', 'bytes=100-', 'bytes=-0', 'bytes=-', 'bytes=0-1,5-9', 'items=0-1', 'bytes=a-b', '']) {
      expect(satisfiableRange(bad, 100), bad).toBeNull();
    }
    expect(satisfiableRange('bytes=0-', 0)).toBeNull();
  });
});
