/**
 * The Wasm modules in Node (the command line): the decoder, compiled once and instantiated in
 * the main thread and in each decode thread, and the GeoParquet writer, loaded on its first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { initSync } from '../wasm/pkg/pbf_explorer.js';
import { GeoParquetWriter, initSync as initGeoParquet } from '../wasm/geoparquet/pkg/pbf_explorer_geoparquet.js';
import type { GeoParquetWriterClass } from './export-pieces';

/**
 * The compiled module of the Wasm file `name`: beside the command line's bundle (`npm run
 * build:cli` copies it into `dist-cli/`, the folder a packed install holds), else in the build's
 * `pkg` folder (`pkg`, a path from `workers/`). Joined, not literal: a literal `new URL` is an
 * asset to Vite, bundled apart.
 * @throws Error naming the file when it is missing (the Wasm build did not run).
 */
function compile(name: string, pkg: string): WebAssembly.Module {
  const urls = [['.', name].join('/'), [pkg, name].join('/')].map((file) => new URL(file, import.meta.url));
  const url = urls.find((u) => existsSync(u)) ?? urls[urls.length - 1];
  try {
    return new WebAssembly.Module(readFileSync(url));
  } catch (e) {
    throw new Error(`cannot load the Wasm module ${url.pathname}: ${(e as Error).message} (run npm run build)`);
  }
}

/**
 * The decoder's compiled module (compiled on the first call).
 * @throws Error naming the file when it is missing.
 */
export function wasmModule(): WebAssembly.Module {
  compiled ??= compile('pbf_explorer_bg.wasm', ['..', 'wasm', 'pkg'].join('/'));
  return compiled;
}
let compiled: WebAssembly.Module | null = null;

/** Instantiates the decoder in this thread from `module`; returns its linear memory. */
export function startWasm(module: WebAssembly.Module = wasmModule()): WebAssembly.Memory {
  return initSync({ module }).memory;
}

/**
 * The GeoParquet writer's class, its module instantiated in this thread on the first call.
 * @throws Error naming the file when it is missing.
 */
export function geoParquetWriter(): GeoParquetWriterClass {
  if (!geoParquetStarted) {
    initGeoParquet({ module: compile('pbf_explorer_geoparquet_bg.wasm', ['..', 'wasm', 'geoparquet', 'pkg'].join('/')) });
    geoParquetStarted = true;
  }
  return GeoParquetWriter;
}
let geoParquetStarted = false;
