/**
 * The page `npm run bench` drives: the same pipeline as the app (FileSource → framer → pool →
 * Wasm workers → results) without the map, plus the JavaScript peer parser, timed in-page.
 */
import tinyosmpbf from 'tiny-osmpbf';
import { runQuery } from '../workers/pipeline';
import { WorkerPool } from '../workers/pool';
import { ResultStore } from '../workers/results';
import { FetchSource, FileSource, HTTP_READ } from '../workers/source';
import type { Query } from '../workers/types';

const input = document.querySelector('input[type=file]') as HTMLInputElement;
const file = () => {
  const f = input.files?.[0];
  if (!f) throw new Error('set a file on the input first');
  return f;
};

/** Timings in milliseconds of one run of our pipeline. */
export interface RunTiming {
  ms: number;
  firstMatchMs: number | null;
  bytes: number;
  elements: number;
  matches: number;
  /** Wasm linear memory of all workers at the end, bytes (= its peak: it never shrinks). */
  wasmBytes: number;
}

/**
 * One timed run of the pipeline with `workers` decode workers (`query` null: count only), on
 * the file input's file, or on `url` over HTTP (with `read` overriding the HTTP read sizes).
 */
async function run(workers: number, query: Query | null, url?: string, read?: { chunkSize: number; readAhead: number }): Promise<RunTiming> {
  const pool = new WorkerPool(workers);
  await pool.ready();
  const store = new ResultStore();
  const started = performance.now();
  let firstMatchMs: number | null = null;
  const source = url ? new FetchSource(url, read ?? HTTP_READ) : new FileSource(file());
  const progress = await runQuery(source, query, pool, store, {
    onResults: (s) => {
      if (firstMatchMs === null && s.size > 0) firstMatchMs = performance.now() - started;
    },
  });
  const ms = performance.now() - started;
  const wasmBytes = pool.wasmBytes();
  pool.terminate();
  return { ms, firstMatchMs, bytes: source.size, elements: progress.elements, matches: store.size, wasmBytes };
}

/** tiny-osmpbf on the whole file (it needs it in memory), counting elements in its handler. */
async function jsPeer(): Promise<{ ms: number; elements: number; bytes: number }> {
  // An ArrayBuffer, not a Uint8Array: tiny-osmpbf wraps its input in `new Uint8Array(input)`
  // for every blob, which copies a typed array but only views a buffer.
  const buffer = await file().arrayBuffer();
  // tiny-osmpbf was written for browserify: it assigns an undeclared `pbf` (which throws in
  // a strict bundle unless the global exists) and calls `new Buffer(n)` for inflate output.
  const globals = globalThis as Record<string, unknown>;
  globals.pbf = null;
  globals.Buffer ??= Uint8Array;
  const started = performance.now();
  let elements = 0;
  tinyosmpbf(buffer, () => elements++);
  return { ms: performance.now() - started, elements, bytes: buffer.byteLength };
}

Object.assign(window, { pbfBench: { run, jsPeer } });
