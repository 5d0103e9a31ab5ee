/**
 * The basemap read, after a query's answer is done: the blobs that hold ways are read again
 * and each decode worker draws, from the area's node locations, the roads, railways, water,
 * buildings, parks and landuse that lie in the area (classes: `wasm/src/basemap.rs`). It is one
 * more read of the answer's read plan (`ReadPlan::ask_basemap`), driven by the same loop
 * ({@link runQuery}). The answer is not delayed by it, and a new query cancels it.
 */
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import type { FramerOptions } from './framer/framer';
import type { DecodePool } from './pool/pool';
import { runQuery } from './run-query';
import type { Source } from './source/source';

/** How a basemap read ended: the features (see {@link readContext}) or why there are none. */
export type ContextResult = { features: Int32Array; note: null } | { features: null; note: string };

/**
 * Reads the basemap of `assembler`'s finished answer from `source`. Resolves with the
 * features (i32s `class, kind, n, then n × (lon_e7, lat_e7)` per feature, in 1e-7 degrees,
 * blobs in file order), or with the reason it was skipped (no area, an area larger than a
 * city, too many nodes in it, no ways in it).
 * @throws the first error of the source, framer or a decode worker; `CancelledError` when
 *   `signal` aborts.
 */
export async function readContext(
  source: Source,
  pool: DecodePool,
  assembler: QueryAssembler,
  signal: AbortSignal,
  framerOptions: FramerOptions = {},
): Promise<ContextResult> {
  const note = assembler.askBasemap();
  if (note) return { features: null, note };
  await runQuery(source, null, pool, assembler, {}, signal, framerOptions);
  return { features: assembler.takeBasemap(), note: null };
}
