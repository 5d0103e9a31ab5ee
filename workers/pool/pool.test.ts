/**
 * The decode pool with the real decode calls (`decode-calls.ts`) and the Wasm decoder, its
 * workers faked in this thread: Blobs go several to a message, every job gets its own answer,
 * and a trap mid-message fails that worker's jobs only and replaces it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlobScanner } from '../../wasm/pkg/pbf_explorer.js';
import { serveDecodeCalls } from '../decode-calls';
import { readFrames, type Frame } from '../framer/framer';
import type { FromDecodeWorker, ToDecodeWorker } from './messages';
import { DecodePool, PER_MESSAGE } from './pool';
import { FileSource } from '../source/source';
import { loadWasm } from '../../tests/wasm-node';

beforeAll(loadWasm);
afterEach(() => vi.restoreAllMocks());

const sample = readFileSync(join(import.meta.dirname, '../../public/sample/helsinki.osm.pbf'));
const QUERY = { q: 'amenity=cafe', area: 'everywhere' as const };

/** A decode worker run in this thread: messages cross in later tasks, as between threads. */
class FakeWorker {
  onmessage: ((e: MessageEvent<FromDecodeWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  readonly received: ToDecodeWorker[] = [];
  private closed = false;
  private terminated = false;
  private readonly serve = serveDecodeCalls(
    {
      post: (message) => setTimeout(() => !this.terminated && this.onmessage?.({ data: message } as MessageEvent<FromDecodeWorker>)),
      close: () => (this.closed = true),
    },
    Promise.resolve(new WebAssembly.Memory({ initial: 1 })),
  );

  postMessage(message: ToDecodeWorker): void {
    this.received.push(message);
    setTimeout(() => !this.closed && void this.serve(message));
  }

  terminate(): void {
    this.terminated = true;
  }
}

/** The sample's OSMData frames, `copies` times over (each frame with a buffer of its own). */
async function dataFrames(copies: number): Promise<Frame[]> {
  const frames: Frame[] = [];
  for await (const f of readFrames(new FileSource(new File([sample], 'helsinki.osm.pbf')))) if (f.type === 'OSMData') frames.push(f);
  return Array.from({ length: copies }, () => frames.map((f) => ({ ...f, blob: f.blob.slice() }))).flat();
}

function pool(workers: FakeWorker[]): DecodePool {
  const p = new DecodePool(2, undefined, undefined, () => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as Worker;
  });
  p.setQuery(QUERY);
  return p;
}

const scans = (ws: FakeWorker[]) => ws.flatMap((w) => w.received).flatMap((m) => (m.type === 'calls' ? [m.requests.length] : []));

describe('DecodePool', () => {
  it('sends queued Blobs several to a message and answers each job with its own scan', async () => {
    const frames = await dataFrames(8);
    const scanner = new BlobScanner(JSON.stringify(QUERY));
    const expected = frames.map((f) => scanner.scan(f.blob.slice()));
    scanner.free();
    const workers: FakeWorker[] = [];
    const p = pool(workers);
    const results = await Promise.all(frames.map((f) => p.scan(f)));
    // Compared as Buffers: toEqual walks a typed array element by element (seconds for these).
    expect(results.map((r, i) => Buffer.from(r).equals(Buffer.from(expected[i])))).toEqual(frames.map(() => true));
    const sizes = scans(workers);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(frames.length);
    expect(Math.max(...sizes)).toBe(PER_MESSAGE);
    expect(sizes.length).toBeLessThan(frames.length / 2);
    p.terminate();
  });

  it('fails the jobs of a worker that traps, replaces it, and answers the other jobs', async () => {
    const frames = await dataFrames(8);
    const trapAt = frames[5].blob;
    const scan = BlobScanner.prototype.scan;
    vi.spyOn(BlobScanner.prototype, 'scan').mockImplementation(function (this: BlobScanner, blob: Uint8Array | number[]) {
      if (blob === trapAt) throw new WebAssembly.RuntimeError('unreachable');
      return scan.call(this, blob);
    });
    const workers: FakeWorker[] = [];
    const p = pool(workers);
    const settled = await Promise.allSettled(frames.map((f) => p.scan(f)));
    const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [i] : []));
    expect(failed).toContain(5);
    expect(failed.length).toBeLessThan(frames.length / 2);
    for (const i of failed) expect(String((settled[i] as PromiseRejectedResult).reason)).toMatch(/^Error: blob #\d+ at byte \d+: the decoder failed \(unreachable\)/);
    expect(workers.length).toBe(3); // two, then one in place of the one that trapped
    expect(settled.slice(failed[failed.length - 1] + 1).every((s) => s.status === 'fulfilled')).toBe(true);
    p.terminate();
  });
});
