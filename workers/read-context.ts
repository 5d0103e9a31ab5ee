/**
 * The basemap read, after a query's answer is done: the blobs that hold ways are read again
 * and each decode worker draws, from the area's node locations, the roads, railways, water,
 * buildings, parks and landuse that lie in the area (classes: `wasm/src/basemap.rs`). The
 * answer is not delayed by it, and a new query cancels it.
 */
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import { readFramesAt, type FramerOptions } from './framer/framer';
import type { DecodePool } from './pool/pool';
import { plannedFrames } from './run-query';
import type { Source } from './source/source';

/** How a basemap read ended: the features (see {@link readContext}) or why there are none. */
export type ContextResult = { features: Int32Array[]; note: null } | { features: null; note: string };

/**
 * Reads the basemap of `assembler`'s finished answer from `source`. Resolves with the
 * features of each blob (i32s `class, kind, n, then n × (lon_e7, lat_e7)` per feature, in
 * 1e-7 degrees), or with the reason it was skipped (no area, an area larger than a city,
 * too many nodes in it).
 * @throws the first error of the source, framer or a decode worker; `CancelledError` (or an
 *   AbortError from the source) when `signal` aborts.
 */
export async function readContext(
  source: Source,
  pool: DecodePool,
  assembler: QueryAssembler,
  signal: AbortSignal,
  framerOptions: FramerOptions = {},
): Promise<ContextResult> {
  const plan = assembler.planContextRead();
  if (plan.length === 0) return { features: null, note: assembler.contextNote() ?? 'no basemap: the file has no ways' };
  pool.setContextNodes(assembler.contextNodes());
  const onAbort = () => pool.cancel();
  signal.addEventListener('abort', onAbort);
  const features: Int32Array[] = [];
  const jobs: Promise<void>[] = [];
  try {
    for await (const frame of readFramesAt(source, plannedFrames(plan), { ...source.readOptions, ...framerOptions, signal })) {
      await pool.waitForSpace();
      const job = pool.context(frame).then((f) => void (f.length > 0 && features.push(f)));
      job.catch(() => {}); // seen below; a cancel must not report each job as unhandled meanwhile
      jobs.push(job);
    }
  } finally {
    const settled = await Promise.allSettled(jobs);
    signal.removeEventListener('abort', onAbort);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return { features, note: null };
}
