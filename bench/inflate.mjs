/**
 * Bench row: inflate every zlib Blob of a file in Wasm (V8) with zune-inflate (the product's
 * path), zlib-rs and miniz_oxide, from the bench-only build `wasm/pkg-bench` (feature
 * `bench-inflate`). `node bench/inflate.mjs FILE` prints {"zune_inflate_ms", "zlib_rs_ms",
 * "miniz_oxide_ms", "bytes_out", "blobs"}.
 */
import { readFileSync } from 'node:fs';
import * as wasm from '../wasm/pkg-bench/pbf_explorer.js';

wasm.initSync({ module: readFileSync(new URL('../wasm/pkg-bench/pbf_explorer_bg.wasm', import.meta.url)) });

/** The Blobs of a PBF (spec "File format": 4-byte length, BlobHeader, Blob). */
function blobs(file) {
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

const all = blobs(readFileSync(process.argv[2]));
const time = (inflater) => {
  const t = performance.now();
  let bytes = 0;
  for (const b of all) bytes += wasm.benchInflate(b, inflater);
  return [performance.now() - t, bytes];
};
time('zlib-rs'); // warm up each (compilation tiers)
time('miniz_oxide');
time('zune-inflate');
const [zlibRs, bytesOut] = time('zlib-rs');
const [miniz, bytesMiniz] = time('miniz_oxide');
const [zune, bytesZune] = time('zune-inflate');
if (bytesOut !== bytesMiniz || bytesOut !== bytesZune) throw new Error(`the inflaters disagree: ${bytesOut} vs ${bytesMiniz} vs ${bytesZune} bytes`);
console.log(JSON.stringify({ zune_inflate_ms: zune, zlib_rs_ms: zlibRs, miniz_oxide_ms: miniz, bytes_out: bytesOut, blobs: all.length }));
