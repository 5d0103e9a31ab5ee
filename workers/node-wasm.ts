/** The Wasm decoder in Node (the command line): compiled once, instantiated in the main thread and in each decode thread. */
import { existsSync, readFileSync } from 'node:fs';
import { initSync } from '../wasm/pkg/pbf_explorer.js';

/**
 * Where the decoder is: beside the command line's bundle (`npm run build:cli` copies it into
 * `dist-cli/`, the folder a packed install holds), else in the build's `wasm/pkg`, a folder up
 * from `workers/`. Joined, not literal: a literal `new URL` is an asset to Vite, bundled apart.
 */
const WASM_FILES = [['.', 'pbf_explorer_bg.wasm'].join('/'), ['..', 'wasm', 'pkg', 'pbf_explorer_bg.wasm'].join('/')];

/**
 * The decoder's compiled module (compiled on the first call).
 * @throws Error naming the file when it is missing (the Wasm build did not run).
 */
export function wasmModule(): WebAssembly.Module {
  if (!compiled) {
    const urls = WASM_FILES.map((file) => new URL(file, import.meta.url));
    const url = urls.find((u) => existsSync(u)) ?? urls[urls.length - 1];
    try {
      compiled = new WebAssembly.Module(readFileSync(url));
    } catch (e) {
      throw new Error(`cannot load the Wasm decoder ${url.pathname}: ${(e as Error).message} (run npm run build)`);
    }
  }
  return compiled;
}
let compiled: WebAssembly.Module | null = null;

/** Instantiates the decoder in this thread from `module`; returns its linear memory. */
export function startWasm(module: WebAssembly.Module = wasmModule()): WebAssembly.Memory {
  return initSync({ module }).memory;
}
