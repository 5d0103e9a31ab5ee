/** Numbers in the file facts and the progress line: grouped as en-US writes them. */
import { describe, expect, it } from 'vitest';
import { groupDigits } from './file-info-rows';

describe('groupDigits', () => {
  it('writes whole numbers as toLocaleString("en-US") does', () => {
    const values = [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 110_372_331, 2 ** 53 - 1, -1, -1234, -1_000_000];
    for (let n = 1; n < 1e16; n = n * 7 + 3) values.push(n);
    for (const n of values) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});
