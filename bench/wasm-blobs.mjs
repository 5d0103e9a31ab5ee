/**
 * The bench's Wasm-in-Node scripts share this: the bench-only build `wasm/pkg-bench` (the
 * product's crate with feature `bench-inflate`), loaded once, and the OSMData Blobs of a file.
 */
import { readFileSync } from 'node:fs';
import * as wasm from '../wasm/pkg-bench/pbf_explorer.js';

wasm.initSync({ module: readFileSync(new URL('../wasm/pkg-bench/pbf_explorer_bg.wasm', import.meta.url)) });

export { wasm };

/** The OSMData Blobs of the PBF at `path` (spec "File format": 4-byte length, BlobHeader, Blob). */
export function osmDataBlobs(path) {
  const file = readFileSync(path);
  const out = [];
  for (let at = 0; at < file.length; ) {
    const headerLength = file.readUInt32BE(at);
    const { type, datasize } = JSON.parse(wasm.readBlobHeader(file.subarray(at + 4, at + 4 + headerLength), at));
    const start = at + 4 + headerLength;
    if (type === 'OSMData') out.push(file.subarray(start, start + datasize));
    at = start + datasize;
  }
  return out;
}
