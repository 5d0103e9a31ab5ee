/**
 * The page `npm run bench` drives: the app's query worker and decode workers without the map,
 * plus the JavaScript peer parser, timed in-page.
 */
import tinyosmpbf from 'tiny-osmpbf';
import { QueryClient } from './query-client';
import type { Query } from '../workers/types';
import { SAMPLE_URL } from './url-state';

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
  /** Wasm linear memory of the query worker and the decode workers at the end, bytes (= its peak: it never shrinks). */
  wasmBytes: number;
  status: string;
}

/**
 * One timed run with `workers` decode workers (`query` null: count only), on the file input's
 * file, or on `url` over HTTP. Workers are started (and have loaded the decoder) before timing.
 * `blobIndex`: read by the blob index kept for the file, or build it (false: a plain full read).
 */
async function run(workers: number, query: Query | null, url?: string, blobIndex = false): Promise<RunTiming> {
  // As the app's: warmed up on the bundled sample before `ready` (outside the timing).
  const client = new QueryClient(workers, new URL(SAMPLE_URL, document.baseURI).href);
  client.drawContext = false; // the bench times the answer; the basemap read follows it in the app
  client.blobIndex = blobIndex;
  client.areaCopies = false; // the bench page times reads of the file itself
  await client.ready;
  const started = performance.now();
  let firstMatchMs: number | null = null;
  let elements = 0;
  let bytes = 0;
  const source = url ? { kind: 'url' as const, url: new URL(url, location.href).href } : { kind: 'file' as const, file: file() };
  const end = await client.run(source, query, {
    onChanges: (_, count) => {
      if (firstMatchMs === null && count > 0) firstMatchMs = performance.now() - started;
    },
    onProgress: (p) => {
      elements = p.elements;
      bytes = p.totalBytes;
    },
  });
  const ms = performance.now() - started;
  // An index built is kept after the answer: the next run's worker must find it.
  if (blobIndex) await client.blobIndexFile();
  client.terminate();
  return { ms, firstMatchMs, bytes, elements, matches: end.count, wasmBytes: end.wasmBytes, status: end.status === 'error' ? end.message : end.status };
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
