/** The Wasm decoder in Node (the command line): compiled once, instantiated in the main thread and in each decode thread. */
import { readFileSync } from 'node:fs';
import { initSync } from '../wasm/pkg/pbf_explorer.js';

/** Where the build put the decoder: `wasm/pkg`, one folder up from `workers/` and from the command line's bundle in `dist-cli/`. */
const WASM_FILE = ['..', 'wasm', 'pkg', 'pbf_explorer_bg.wasm'].join('/');

/**
 * The decoder's compiled module (compiled on the first call).
 * @throws Error naming the file when it is missing (the Wasm build did not run).
 */
export function wasmModule(): WebAssembly.Module {
  if (!compiled) {
    const url = new URL(WASM_FILE, import.meta.url);
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
