/** The decoder's warm-up: every OSMData blob of the sample scanned each pass, stopped by a run, harmless without the file. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlobScanner } from '../wasm/pkg/pbf_explorer.js';
import { readFrames } from './framer/framer';
import { FileSource } from './source/source';
import { warmUp, WARM_UP_PASSES } from './warm-up';
import { loadWasm } from '../tests/wasm-node';

beforeAll(loadWasm);
afterEach(() => vi.restoreAllMocks());

const sample = readFileSync(join(import.meta.dirname, '../public/sample/helsinki.osm.pbf'));

/** `fetch` answering the sample for its URL, 404 for any other. */
function serveSample() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) =>
    String(url).endsWith('/sample/helsinki.osm.pbf') ? new Response(new Uint8Array(sample)) : new Response('not found', { status: 404 }),
  );
}

describe('warmUp', () => {
  it('scans every OSMData blob of the file once per pass', async () => {
    let dataBlobs = 0;
    for await (const f of readFrames(new FileSource(new File([sample], 'helsinki.osm.pbf')))) if (f.type === 'OSMData') dataBlobs++;
    expect(dataBlobs).toBeGreaterThan(1);
    serveSample();
    const scan = vi.spyOn(BlobScanner.prototype, 'scan');
    await warmUp('http://app.test/sample/helsinki.osm.pbf', () => false);
    expect(scan).toHaveBeenCalledTimes(dataBlobs * WARM_UP_PASSES);
    // Each scan decoded a real blob (a scan's result is never empty).
    for (const result of scan.mock.results) expect((result.value as Uint8Array).length).toBeGreaterThan(0);
  });

  it('stops at the next blob once a query has come', async () => {
    serveSample();
    let scans = 0;
    const original = BlobScanner.prototype.scan;
    vi.spyOn(BlobScanner.prototype, 'scan').mockImplementation(function (this: BlobScanner, blob: Parameters<BlobScanner['scan']>[0]) {
      scans++;
      return original.call(this, blob);
    });
    await warmUp('http://app.test/sample/helsinki.osm.pbf', () => scans >= 2);
    expect(scans).toBe(2);
  });

  it('does nothing, and does not throw, without the file', async () => {
    serveSample();
    const scan = vi.spyOn(BlobScanner.prototype, 'scan');
    await expect(warmUp('http://app.test/missing.osm.pbf', () => false)).resolves.toBeUndefined();
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(warmUp('http://app.test/sample/helsinki.osm.pbf', () => false)).resolves.toBeUndefined();
    expect(scan).not.toHaveBeenCalled();
  });
});
