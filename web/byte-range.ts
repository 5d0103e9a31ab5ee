/**
 * The byte range a `Range` request header asks of a file (RFC 9110 §14.1.2), for the service
 * worker's answers from its cache: one range, `bytes=a-b`, `bytes=a-` or `bytes=-n`.
 */

/**
 * The range `header` asks of a file of `size` bytes, clipped to the file, as `[start, end]`
 * (bytes, `end` inclusive); null when the server must answer 416: the header is not one byte
 * range, its last byte comes before its first (`bytes=5-1`), its first byte lies past the
 * file's end (`bytes=99999999-`), or a suffix range is empty (`bytes=-0`).
 */
export function satisfiableRange(header: string, size: number): [number, number] | null {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix > 0 && size > 0 ? [Math.max(0, size - suffix), size - 1] : null;
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (end < start || start >= size) return null;
  return [start, Math.min(end, size - 1)];
}
