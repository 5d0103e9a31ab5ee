/**
 * One read of a file on the command line: the browser's pipeline (source → framer → pool of
 * decode workers → assembler) run from Node's main thread, which plays the query worker's part.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import { askBeside, identityOf, indexFor } from '../workers/index-store';
import { BufferPool } from '../workers/framer/buffers';
import { DecodePool } from '../workers/pool/pool';
import { assemblerFor, runQuery, type BlobIndexUse, type RunCallbacks } from '../workers/run-query';
import { FetchSource } from '../workers/source/http-source';
import type { Source } from '../workers/source/source';
import type { FileInfo, HeaderInfo, Progress, Query } from '../workers/types';
import { NodeFileSource } from '../workers/source/node-file-source';
import { startDecodeThread } from '../workers/pool/thread-worker';
import { startWasm } from '../workers/node-wasm';

/** How the blob index takes part in a read. */
export type IndexMode =
  /** Use `FILE.idx` beside the file (or `URL.idx` on the server) when there is one and it is this file's. */
  | { kind: 'beside' }
  /** Read the whole file, and build its index: the bytes go to `onBuilt`. */
  | { kind: 'build'; onBuilt: (bytes: Uint8Array) => Promise<void> }
  | { kind: 'none' };

export interface ReadOptions {
  /** Decode threads; default one per core. */
  threads: number;
  index: IndexMode;
  onProgress?: (progress: Progress) => void;
  /** Told when an index beside the file is not used, and why. */
  onIndexRefused?: (reason: string) => void;
}

/** A finished read: its answer (the caller frees it) and what was learnt about the file. */
export interface ReadResult {
  assembler: QueryAssembler;
  info: FileInfo;
  progress: Progress;
}

/**
 * A URL (`http:` or `https:`) or a local path.
 * @throws Error for a URL with a user name or password in it (not repeated in the message: it
 *   would be sent to the server, and end up in logs).
 */
export function openSource(target: string): Source {
  if (!/^https?:\/\//i.test(target)) return new NodeFileSource(target);
  const url = URL.canParse(target) ? new URL(target) : null;
  if (url && (url.username || url.password)) throw new Error(`a URL with a user name or password in it is refused (${url.host}): give the file's address without them`);
  return new FetchSource(target);
}

/**
 * Reads `target` (a path or a URL) for `query` (null: only count, as `info` does) and resolves
 * with the assembled answer. The query is checked before any byte is read.
 * @throws Error with the page's messages: a syntax error (with its column), an unreadable file, a
 *   corrupt blob (naming its index and byte offset), an HTTP failure.
 */
export async function readTarget(target: string, query: Query | null, options: ReadOptions): Promise<ReadResult> {
  startWasm();
  const assembler = assemblerFor(query);
  const source = openSource(target);
  const pool = new DecodePool(options.threads, undefined, undefined, startDecodeThread);
  // Blob buffers are used again once a decode thread hands them back, as in the page.
  const buffers = new BufferPool();
  pool.onSpent = (buffer) => buffers.put(buffer);
  const info: FileInfo = { name: target, size: NaN, header: null, facts: null };
  try {
    const blobIndex = await blobIndexUse(source, options);
    const callbacks: RunCallbacks = {
      onHeader: (header: HeaderInfo) => ((info.header = header), (info.size = source.size)),
      onProgress: options.onProgress,
      requests: source instanceof FetchSource ? source.stats : undefined,
    };
    const progress = await runQuery(source, query, pool, assembler, callbacks, undefined, { buffers }, blobIndex);
    info.size = source.size;
    // A read by the index saw only some blobs: it knows no whole-file facts.
    info.facts = progress.blobIndex === 'used' ? null : JSON.parse(assembler.fileFacts());
    return { assembler, info, progress };
  } catch (e) {
    assembler.free();
    throw e;
  } finally {
    pool.terminate();
    if (source instanceof FetchSource) source.release(); // no reply left downloading keeps the process alive
    if (source instanceof NodeFileSource) await source.close();
  }
}

/** The blob index use of a read (see {@link IndexMode}), or undefined for none. */
async function blobIndexUse(source: Source, options: ReadOptions): Promise<BlobIndexUse | undefined> {
  const mode = options.index;
  if (mode.kind === 'none') return undefined;
  // A local file without FILE.idx needs no identity (2 MiB read and hashed).
  if (mode.kind === 'beside' && source instanceof NodeFileSource && !existsSync(`${source.name}.idx`)) return undefined;
  if (mode.kind === 'build') {
    const identity = await identityOf(source);
    if (!identity) throw new Error(`${source.name} cannot be read at random (no Range support), so it gets no blob index`);
    const onBuilt = async (finish: () => Uint8Array | null) => {
      const bytes = finish();
      if (bytes) await mode.onBuilt(bytes);
    };
    return { identity: Promise.resolve(identity), bytes: null, onBuilt, onRefused: () => {} };
  }
  // As the page chooses: a server's URL.idx (asked for along with the identity's reads), or FILE.idx.
  const beside = askBeside(source);
  try {
    const local = () => (source instanceof NodeFileSource ? localIndex(`${source.name}.idx`) : Promise.resolve(null));
    const found = await indexFor(source, beside, local);
    if (!found?.bytes) return undefined; // then the read is a plain full read, building nothing
    return {
      identity: Promise.resolve(found.identity),
      bytes: found.bytes,
      onBuilt: () => {},
      onRefused: (reason) => options.onIndexRefused?.(reason),
      pages: beside.pages,
    };
  } finally {
    beside.stop();
  }
}

async function localIndex(path: string): Promise<Uint8Array | null> {
  return existsSync(path) ? new Uint8Array(await readFile(path)) : null;
}
