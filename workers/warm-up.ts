/**
 * Warms the Wasm decoder up while the query worker is idle. V8 first runs a Wasm function as
 * baseline code and compiles it with its optimizing tier (TurboFan) only once it has run a
 * while, in background threads: on a page's first query that compiling (about 45 functions,
 * 0.2–0.3 s of CPU) competed with the decoders on a 2-core machine. Scanning a few real blobs
 * first gets them compiled before any query. The decode workers load the same module in the
 * same process and V8 shares its compiled code, so scanning here warms them too (`docs/decisions.md`).
 */
import { BlobScanner } from '../wasm/pkg/pbf_explorer.js';
import { readFrames } from './framer/framer';
import { FileSource } from './source/source';

/**
 * How many times the sample's blobs are scanned: enough for most hot functions to tier up
 * (~120 ms), few enough not to hold the CPU when the first query comes (`docs/decisions.md`).
 */
export const WARM_UP_PASSES = 3;

/** The scan's work as a query does it: tags, an area, the blob index's notes. */
const WARM_UP_QUERY = { q: 'amenity=cafe', area: { circle: { lat: 60.1699, lon: 24.9384, radius: 1000 } }, index: true };

/**
 * Scans the OSMData blobs of the PBF at `url` (the bundled sample, precached by the service
 * worker, so offline too) `passes` times, one blob per task, and returns early as soon as
 * `stopped()` is true (a query has come: it must not wait for this). Never throws: without the
 * file (a deployment without it, a network error) the first query simply warms up itself.
 */
export async function warmUp(url: string, stopped: () => boolean, passes = WARM_UP_PASSES): Promise<void> {
  let scanner: BlobScanner | null = null;
  try {
    const response = await fetch(url);
    if (!response.ok || stopped()) return;
    const source = new FileSource(new File([await response.blob()], 'warm-up.osm.pbf'));
    const blobs: Uint8Array[] = [];
    for await (const frame of readFrames(source)) if (frame.type === 'OSMData') blobs.push(frame.blob);
    scanner = new BlobScanner(JSON.stringify(WARM_UP_QUERY));
    for (let pass = 0; pass < passes; pass++) {
      for (const blob of blobs) {
        // A task per blob (a few ms each), so that a query's message is taken at once.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (stopped()) return;
        scanner.scan(blob);
      }
    }
  } catch {
    // Only a warm-up: the first query then pays for the compiling, as without it.
  } finally {
    scanner?.free();
  }
}
