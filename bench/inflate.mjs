/**
 * Bench row: inflate every zlib Blob of a file in Wasm (V8) with zune-inflate (the product's
 * path), zlib-rs and miniz_oxide, from the bench-only build `wasm/pkg-bench` (feature
 * `bench-inflate`). `node bench/inflate.mjs FILE` prints {"zune_inflate_ms", "zlib_rs_ms",
 * "miniz_oxide_ms", "bytes_out", "blobs"}.
 */
import { osmDataBlobs, wasm } from './wasm-blobs.mjs';

const all = osmDataBlobs(process.argv[2]);
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
