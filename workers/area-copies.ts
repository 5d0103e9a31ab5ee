/**
 * Area copies (docs/optimize.md, "Area copies"): after a query of an area on a local file, the
 * elements any query within a wider bbox can need are written again grouped by place (the
 * crate's `AreaCopy`, in passes over the file), with their blob index, and kept in the Origin
 * Private File System under the file's identity (size, XXH64 of its first and last 16 KiB) and
 * its last-modified time. The next question within that bbox reads the copy instead of the
 * file; a file that changed (another size, other ends, another time) finds none. Storage
 * failures only cost speed: the copy is then held in memory for this worker's life.
 */
import { AreaCopy } from '../wasm/pkg/pbf_explorer.js';
import { BufferPool } from './framer/buffers';
import { readFrames } from './framer/framer';
import { directory, indexName, names } from './index-store';
import { CancelledError } from './pool/pool';
import type { Source } from './source/source';
import type { FileInfo } from './types';

/** What is kept of a copy beside its bytes: its bbox and the original file's info. */
export interface CopyMeta {
  /** `[min_lat, min_lon, max_lat, max_lon]`, degrees (`QueryAssembler.areaCopyBbox`). */
  bbox: number[];
  /** Bytes of the copy and of its index. */
  bytes: number;
  indexBytes: number;
  /** The original file's info (header and facts), which a read of the copy shows. */
  info: FileInfo;
}

/** A copy found for a query: its meta, its bytes and its blob index. */
export interface AreaCopyFound {
  meta: CopyMeta;
  file: Blob;
  index: Uint8Array;
}

/** The OPFS folder of the copies, and how many stay (the most recently written). */
const FOLDER = 'area-copies';
const KEPT = 4;
/** Copies held in memory when OPFS fails, by name. */
const held = new Map<string, AreaCopyFound>();

/** The name a copy of the file of `identity`, modified at `lastModified` (ms), starts with. */
export const copyKey = (identity: Uint8Array, lastModified: number): string => `${indexName(identity).replace(/\.idx$/, '')}-${lastModified}`;

const folder = async () => (await directory()).getDirectoryHandle(FOLDER, { create: true });

/** The bytes of an OPFS file of `dir`. */
const fileOf = async (dir: FileSystemDirectoryHandle, name: string) => (await dir.getFileHandle(name)).getFile();

/** The copies kept for `key` whose bbox `fits`, the smallest first; null when none. */
export async function findCopy(key: string, fits: (bbox: number[]) => boolean): Promise<AreaCopyFound | null> {
  const inMemory = [...held.entries()].filter(([name, c]) => name.startsWith(`${key}-`) && fits(c.meta.bbox)).map(([, c]) => c);
  if (inMemory.length > 0) return inMemory.sort((a, b) => a.meta.bytes - b.meta.bytes)[0];
  try {
    const dir = await folder();
    const found: { name: string; meta: CopyMeta }[] = [];
    for await (const name of names(dir)) {
      if (!name.startsWith(`${key}-`) || !name.endsWith('.json')) continue;
      const meta = JSON.parse(await (await fileOf(dir, name)).text()) as CopyMeta;
      if (fits(meta.bbox)) found.push({ name: name.slice(0, -'.json'.length), meta });
    }
    found.sort((a, b) => a.meta.bytes - b.meta.bytes);
    for (const { name, meta } of found) {
      try {
        const [file, index] = await Promise.all([fileOf(dir, `${name}.osm.pbf`), fileOf(dir, `${name}.idx`)]);
        if (file.size !== meta.bytes || index.size !== meta.indexBytes) continue; // written in part
        return { meta, file, index: new Uint8Array(await index.arrayBuffer()) };
      } catch {
        // its files are gone: the next
      }
    }
  } catch {
    // no OPFS here
  }
  return null;
}

/**
 * Makes the copy of `source` for `bbox` (degrees, as {@link CopyMeta.bbox}): reads the file
 * once per pass, giving the event loop a turn every {@link TURN_MS} so that a new query stops
 * it at once. `onShare` is told the share done (0–1).
 * @throws CancelledError when `signal` aborts; the crate's errors (a corrupt blob, a history
 *   file) and the source's.
 */
export async function makeCopy(source: Source, bbox: number[], signal: AbortSignal, onShare: (share: number) => void): Promise<{ copy: Blob; index: Uint8Array }> {
  const copier = new AreaCopy(bbox[0], bbox[1], bbox[2], bbox[3]);
  // Each frame's buffer serves again once the copier has read it: five passes over a file
  // would otherwise leave five times its size to V8's lazy collection.
  const buffers = new BufferPool();
  try {
    // Passes: nodes, ways, relations, then as needed member ways and more nodes (at most 5).
    for (let pass = 0; ; pass++) {
      let turn = performance.now();
      for await (const frame of readFrames(source, { signal, buffers, onRead: (read) => onShare(Math.min(1, (pass + read / source.size) / 5)) })) {
        copier.addFrame(frame.type, frame.blob);
        buffers.put(frame.blob.buffer as ArrayBuffer);
        if (performance.now() - turn > TURN_MS) {
          await nextTask();
          turn = performance.now();
        }
        if (signal.aborted) throw new CancelledError();
      }
      if (!copier.endPass()) break;
    }
    const layout = copier.finish();
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (let frame = layout.nextFrame(); frame !== undefined; frame = layout.nextFrame()) parts.push(frame as Uint8Array<ArrayBuffer>);
    const index = layout.blobIndex()!;
    layout.free();
    return { copy: new Blob(parts), index };
  } finally {
    copier.free();
  }
}

/** The longest (ms) a copy's read holds the query worker's thread between two turns. */
const TURN_MS = 10;

/**
 * Resolves in a task of its own, after the tasks queued before it (a page's new question among
 * them). Not `setTimeout`: nested timeouts wait at least 4 ms each.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Keeps a copy made by {@link makeCopy} under `key` (and forgets the oldest beyond {@link KEPT}). */
export async function keepCopy(key: string, meta: CopyMeta, copy: Blob, index: Uint8Array): Promise<void> {
  const name = `${key}-${Date.now()}`;
  try {
    const dir = await folder();
    const write = async (file: string, data: Blob | string | Uint8Array) => {
      const writable = await (await dir.getFileHandle(file, { create: true })).createWritable();
      await writable.write(data as Blob);
      await writable.close();
    };
    await write(`${name}.osm.pbf`, copy);
    await write(`${name}.idx`, index);
    await write(`${name}.json`, JSON.stringify(meta)); // last: a copy without it is never found
    await forgetOldest(dir);
  } catch {
    held.set(name, { meta, file: copy, index });
  }
}

async function forgetOldest(dir: FileSystemDirectoryHandle): Promise<void> {
  const kept: [string, number][] = [];
  for await (const name of names(dir)) if (name.endsWith('.json')) kept.push([name.slice(0, -'.json'.length), (await fileOf(dir, name)).lastModified]);
  kept.sort((a, b) => b[1] - a[1]);
  for (const [name] of kept.slice(KEPT)) await removeCopy(dir, name);
}

async function removeCopy(dir: FileSystemDirectoryHandle, name: string): Promise<void> {
  for (const ext of ['.json', '.osm.pbf', '.idx']) await dir.removeEntry(name + ext).catch(() => {});
}

/** Bytes of every copy kept (files and indexes). */
export async function copiesBytes(): Promise<number> {
  let bytes = [...held.values()].reduce((sum, c) => sum + c.meta.bytes + c.meta.indexBytes, 0);
  try {
    const dir = await folder();
    for await (const name of names(dir)) bytes += (await fileOf(dir, name)).size;
  } catch {
    // no OPFS here
  }
  return bytes;
}

/** Removes every copy kept. */
export async function removeCopies(): Promise<void> {
  held.clear();
  try {
    await (await directory()).removeEntry(FOLDER, { recursive: true });
  } catch {
    // none kept, or no OPFS here
  }
}
