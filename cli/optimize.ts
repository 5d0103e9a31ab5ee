/**
 * `pbf-explorer optimize IN OUT`: the crate's `optimize` (`docs/optimize.md`) run in Wasm on
 * Node's main thread. IN's frames go to the optimizer in file order; OUT is written frame by
 * frame, then its blob index beside it as OUT.idx. Both are written to temporary names and
 * renamed at the end, so a failed run leaves no half-written file under either name.
 */
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { FileOptimizer } from '../wasm/pkg/pbf_explorer.js';
import { readFrames } from '../workers/framer/framer';
import { NodeFileSource } from '../workers/source/node-file-source';
import { startWasm } from '../workers/node-wasm';

/** What `optimize` wrote: the file's and the index's sizes (bytes) and the OSMData blobs. */
export interface Optimized {
  bytes: number;
  indexBytes: number;
  blobs: number;
}

/**
 * Optimizes `input` into `output` (and `output`.idx). `onStatus` is told what is being done
 * (a short line, e.g. "reading 12.5 / 40.0 MB").
 * @throws Error: the input cannot be read, is not a PBF file, holds a corrupt blob (named by
 *   its index and byte offset), is a history file; the output cannot be written.
 */
export async function optimizeFile(input: string, output: string, onStatus: (line: string) => void = () => {}): Promise<Optimized> {
  startWasm();
  const source = new NodeFileSource(input);
  await source.open();
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const optimizer = new FileOptimizer();
  const [partFile, partIndex] = [`${output}.part`, `${output}.idx.part`];
  try {
    for await (const frame of readFrames(source, { onRead: (read) => onStatus(`reading ${mb(read)} / ${mb(source.size)} MB`) })) {
      try {
        optimizer.addFrame(frame.type, frame.blob);
      } catch (e) {
        throw new Error(`blob #${frame.index} at byte ${frame.offset}: ${(e as Error).message}`);
      }
    }
    const layout = optimizer.finish();
    const out = await open(partFile, 'w');
    let bytes = 0;
    try {
      for (let frame = layout.nextFrame(); frame !== undefined; frame = layout.nextFrame()) {
        await out.write(frame);
        bytes += frame.length;
        onStatus(`writing blob ${layout.framesWritten()} / ${layout.framesTotal()}`);
      }
    } finally {
      await out.close();
    }
    const index = layout.blobIndex()!;
    const blobs = layout.framesTotal();
    layout.free();
    await writeFile(partIndex, index);
    await rename(partFile, output);
    await rename(partIndex, `${output}.idx`);
    return { bytes, indexBytes: index.length, blobs };
  } catch (e) {
    await rm(partFile, { force: true });
    await rm(partIndex, { force: true });
    throw e;
  } finally {
    optimizer.free();
  }
}
