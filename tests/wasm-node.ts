/** Loads the built Wasm decoder (wasm/pkg, from `npm run build:wasm`) into Node for unit tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync } from '../wasm/pkg/pbf_explorer.js';

export function loadWasm(): void {
  initSync({ module: readFileSync(fileURLToPath(new URL('../wasm/pkg/pbf_explorer_bg.wasm', import.meta.url))) });
}
