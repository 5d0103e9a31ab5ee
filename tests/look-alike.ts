/**
 * A look-alike of a PBF file with raw (uncompressed) blobs, for the blob index's tests: the same
 * size, the same first and last MiB, but each string "cafe" of the middle 400 KB written "cafX"
 * (so the cafés of its middle blobs are gone, and each blob keeps its size).
 * @throws Error when the middle holds no "cafe" string, or the file is too small for the ends to stay.
 */
export function lookAlike(real: Buffer): Buffer {
  const out = Buffer.from(real);
  const mid = out.length >> 1;
  let changed = 0;
  for (let i = mid - 200_000; i < mid + 200_000; i++) {
    if (out[i - 1] === 4 && out.toString('latin1', i, i + 4) === 'cafe') {
      out[i + 3] = 0x58;
      changed++;
    }
  }
  const endsKept = out.subarray(0, 1 << 20).equals(real.subarray(0, 1 << 20)) && out.subarray(-(1 << 20)).equals(real.subarray(-(1 << 20)));
  if (changed === 0 || !endsKept) throw new Error('not a look-alike: no "cafe" in the middle of the file, or the file is under 2.4 MB');
  return out;
}
