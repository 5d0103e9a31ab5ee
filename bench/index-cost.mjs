/**
 * Bench row: what building the blob index costs the decoders alone, on one thread in Node's
 * V8 (the browser's engine) without the browser's noise: every Blob of a file scanned for the
 * 1000 m query, with and without `"index": true`, alternating. `node bench/index-cost.mjs FILE
 * LAT LON RADIUS [ROUNDS]` prints {"plain_ms", "index_ms"}, the best of ROUNDS (default 5) each.
 */
import { osmDataBlobs, wasm } from './wasm-blobs.mjs';

const [path, lat, lon, radius, rounds = '5'] = process.argv.slice(2);
const all = osmDataBlobs(path);
const query = (index) => JSON.stringify({ q: 'amenity=cafe', area: { circle: { lat: Number(lat), lon: Number(lon), radius: Number(radius) } }, index });
const scanners = [new wasm.BlobScanner(query(false)), new wasm.BlobScanner(query(true))];
const best = [Infinity, Infinity];
for (let round = 0; round <= Number(rounds); round++) {
  scanners.forEach((scanner, i) => {
    const t = performance.now();
    for (const blob of all) scanner.scan(blob);
    if (round > 0) best[i] = Math.min(best[i], performance.now() - t); // round 0 warms up (tiers)
  });
}
console.log(JSON.stringify({ plain_ms: best[0], index_ms: best[1] }));
