/**
 * Runs one query inside the query worker: source → framer → pool of decode workers →
 * assembler (Rust, in this worker's Wasm instance). The page is told only what changed.
 *
 * Which blobs are read, in what order and for what, is the read plan's business (Rust,
 * `wasm/src/assembly/read_plan.rs`, in the assembler): this file only fetches and decodes each read it
 * names, the whole file in order or listed blobs, and hands back what the decode workers found.
 * On an error or a cancel, what was found so far stays in the assembler.
 */
import { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import { readFrames, readFramesAt, type Frame, type FrameAt, type FramerOptions } from './framer/framer';
import { blobError, CancelledError, type DecodePool } from './pool/pool';
import { FileOrder } from './file-order';
import type { FetchStats, Source } from './source/source';
import { WAITING_NOTE_MS } from './common/waiting';
import type { HeaderInfo, Progress, Query } from './types';
import type { PageFetch } from './index-store';

/** A blob index for the read (docs/blob-index.md): one to read by, or one to build. */
export interface BlobIndexUse {
  /**
   * Settles with the file's identity (`identityOf`). A read with no index to read by waits for
   * it only at its end, where the index it builds needs it; its reads are the read's own, so
   * their failure (over HTTP: the file changed on the server) fails the run.
   */
  identity: Promise<Uint8Array>;
  /** The index kept for the file, or null: then a full read builds one. */
  bytes: Uint8Array | null;
  /**
   * Called when a full read that notes the index has ended well, with `finish`, which makes the
   * index's bytes from what the scans noted (null when they noted none). The
   * read ends once the returned promise settles: the query worker returns at once and finishes
   * the index after it has sent the answer (~35 ms on the 110 MB file the answer need not wait).
   */
  onBuilt: (finish: () => Uint8Array | null) => void | Promise<void>;
  /**
   * Called when `bytes` cannot be used (corrupt, or of another file), with the reason; the read
   * goes on in full. Also when a blob read by it does not match its checksum: the read then
   * starts again whole, and builds a new index.
   */
  onRefused: (reason: string) => void;
  /**
   * Fetches pages of the index (a server's paged index, of which `bytes` hold the head): the
   * bytes of each `{offset, size}` of the index file. Absent when `bytes` are a whole index.
   */
  pages?: PageFetch | null;
}

export interface RunCallbacks {
  onHeader?: (header: HeaderInfo) => void;
  onProgress?: (progress: Progress) => void;
  /** Called after each blob the assembler took in (it may hold changes for the page). */
  onBlob?: () => void;
  /** The source's request counters (an HTTP source's `stats`), for the progress line. */
  requests?: FetchStats;
  /**
   * Called when a blob did not match the blob index read by (`message` says which): what was
   * found is dropped (the assembler starts afresh) and the file is read again whole.
   */
  onIndexMismatch?: (message: string) => void;
}

/**
 * The assembler (and read plan) of a read for `query` (null: a read that only counts
 * elements). The query is parsed here, so a syntax error ends a run before any byte is read.
 * @throws Error with the query's syntax error and its column.
 */
export function assemblerFor(query: Query | null): QueryAssembler {
  return new QueryAssembler(JSON.stringify(query), 0);
}

/** `[index, offset, size, from, to]` per blob from `at` on, as `QueryAssembler.nextRead` lists them. */
function plannedFrames(plan: Float64Array, at = 0): (FrameAt & { from: number; to: number })[] {
  const frames = [];
  for (let i = at; i < plan.length; i += 5) {
    frames.push({ index: plan[i], offset: plan[i + 1], size: plan[i + 2], from: plan[i + 3], to: plan[i + 4] });
  }
  return frames;
}

/** A read the plan asks for, as `QueryAssembler.nextRead` gives it. */
interface PlannedRead {
  /** What a decode worker does with each blob (`Decode` in `wasm/src/assembly/read_plan.rs`). */
  decode: (typeof DECODES)[number];
  /** The blobs, or null for every frame of the file in file order. */
  frames: PlannedFrame[] | null;
  /** The blobs were read before: progress counts them as read again. */
  reread: boolean;
}

const DECODES = ['scan', 'locate-ways', 'locate-nodes', 'basemap', 'index-pages'] as const;

function nextRead(assembler: QueryAssembler): PlannedRead | null {
  const read = assembler.nextRead();
  if (!read) return null;
  return { decode: DECODES[read[0]], frames: read[1] ? null : plannedFrames(read, 3), reread: read[2] === 1 };
}

/** Passes the decode workers' query on to `pool` whenever the plan changed it. */
function scannerSync(assembler: QueryAssembler, pool: DecodePool): () => void {
  let version = -1;
  let query = '';
  return () => {
    if (assembler.scanVersion() === version) return;
    version = assembler.scanVersion();
    const next = assembler.scanQuery();
    if (next !== query) pool.setQuery(JSON.parse(next) as Query);
    query = next;
    pool.setAreaNodes(assembler.scanAreaNodes());
    const filter = assembler.scanAreaFilter();
    pool.setAreaFilter(filter.length > 0 ? filter : null);
    const basemapNodes = assembler.scanBasemapNodes();
    if (basemapNodes.length > 0) pool.setContextNodes(basemapNodes);
  };
}

/**
 * Reads `source`, decodes its blobs in `pool` and assembles the matches of `query` in
 * `assembler`, one read after another as its read plan asks (`wasm/src/assembly/read_plan.rs`): this is
 * a driver, it knows no pass. `query` null: only count elements; with `blobIndex`, the read is
 * by the index, or (none, or refused) a full read also builds it. Resolves when done.
 * @throws the first error of the source, the framer (PbfFormatError) or a worker (naming the
 *   blob and byte offset); {@link CancelledError} when `signal` aborts. The assembler keeps
 *   what was found.
 */
export async function runQuery(
  source: Source,
  query: Query | null,
  pool: DecodePool,
  assembler: QueryAssembler,
  callbacks: RunCallbacks = {},
  signal?: AbortSignal,
  framerOptions: FramerOptions = {},
  blobIndex?: BlobIndexUse,
): Promise<Progress> {
  const started = performance.now();
  const progress: Progress = { bytesRead: 0, totalBytes: 0, blobsDecoded: 0, elements: 0, blobsReread: 0, elapsedMs: 0 };
  const report = () => {
    progress.elapsedMs = performance.now() - started;
    const requests = callbacks.requests;
    if (requests) {
      progress.requestsInFlight = requests.requestsInFlight;
      progress.retries = requests.retries;
      progress.rangeSupported = requests.rangeSupported;
      progress.waitingMs = requests.waits.longest();
    }
    callbacks.onProgress?.({ ...progress });
  };
  // A silent server sends no event: the progress line is told of the wait each second.
  const waitTicker = callbacks.requests ? setInterval(() => callbacks.requests!.waits.longest() >= WAITING_NOTE_MS && report(), 1000) : undefined;
  // One controller stops the reader on the caller's cancel or on the first failure.
  const stop = new AbortController();
  const onAbort = () => {
    stop.abort();
    pool.cancel();
  };
  signal?.addEventListener('abort', onAbort);
  let failure: unknown = null;
  // On a failure, stop reading but let the blobs already sent finish: what those before the bad
  // spot hold is kept (FileOrder drops what came after it).
  const fail = (e: unknown) => {
    failure ??= e;
    stop.abort();
  };
  const going = () => !failure && !stop.signal.aborted;
  /** Set when a blob did not match the blob index: the rest of the read under way is not wanted. */
  let indexGivenUp = false;
  const giveUpIndex = (message: string) => {
    indexGivenUp = true;
    blobIndex?.onRefused(message);
    Object.assign(progress, { bytesRead: 0, blobsDecoded: 0, blobsReread: 0, blobIndex: 'mismatch' });
    callbacks.onIndexMismatch?.(message);
  };
  const decoding = new Set<Promise<void>>();
  const syncScanner = scannerSync(assembler, pool);
  const options = { ...framerOptions, signal: stop.signal };
  /** One read of the plan: each blob decoded in `pool`, what it gave added in file order. */
  const readOnce = async (read: PlannedRead) => {
    indexGivenUp = false;
    syncScanner(); // the plan of the first read may have set the scans' area nodes
    if (read.decode === 'index-pages') return addIndexPages(assembler, read.frames ?? [], blobIndex, stop.signal);
    const add = (frame: Frame, found: ArrayBuffer) => {
      if (signal?.aborted || indexGivenUp) return;
      if (read.reread) progress.blobsReread++;
      else progress.blobsDecoded++;
      assembler.addBlob(frame.index, frame.offset, frame.size, new Uint8Array(found));
      const mismatch = assembler.takeIndexMismatch();
      if (mismatch !== undefined) giveUpIndex(mismatch);
      syncScanner();
      const c = assembler.counts();
      progress.elements = c[0] + c[1] + c[2];
      report();
      callbacks.onBlob?.();
    };
    const inOrder = new FileOrder<[Frame, ArrayBuffer]>((_, [frame, found]) => add(frame, found));
    const byOffset = new Map(read.frames?.map((f) => [f.offset, f]));
    const decode = (frame: Frame) => {
      if (read.decode === 'scan') return pool.scan(frame);
      if (read.decode === 'basemap') return pool.context(frame).then((features) => features.buffer as ArrayBuffer);
      const f = byOffset.get(frame.offset)!;
      // The blob's own ids only, asked for as it comes: all of them can be tens of millions.
      return pool.locate(frame, assembler.wantedOf(f.from, f.to), read.decode === 'locate-ways');
    };
    const frames = read.frames
      ? readFramesAt(source, read.frames, options)
      : readFrames(source, { ...options, onRead: (n) => ((progress.bytesRead = n), report()) });
    for await (const frame of frames) {
      if (!going() || indexGivenUp) break;
      if (read.frames && !read.reread) progress.bytesRead += frame.size;
      if (frame.type === 'OSMHeader') {
        const header = headerOf(assembler, frame);
        syncScanner(); // a history file's scans answer as of the query's moment
        callbacks.onHeader?.(header);
      } else if (frame.type === 'OSMData') {
        await pool.waitForSpace();
        inOrder.dispatched(frame.index);
        const job = decode(frame).then((found) => inOrder.done(frame.index, [frame, found]));
        const tracked = job.catch((e) => (inOrder.failed(frame.index), fail(e)));
        decoding.add(tracked);
        void tracked.finally(() => decoding.delete(tracked));
      } // unknown frame types are skipped, as the spec says
    }
    await Promise.all(decoding);
  };
  try {
    await source.open(stop.signal);
    progress.totalBytes = source.size;
    if (blobIndex) await chooseIndex(assembler, blobIndex, query !== null);
    const indexState = assembler.blobIndexState() as Progress['blobIndex'] | undefined;
    if (indexState) progress.blobIndex = indexState;
    report();
    syncScanner();
    for (let read = nextRead(assembler); read && going(); read = going() ? nextRead(assembler) : null) await readOnce(read);
    if (going() && blobIndex && assembler.blobIndexState() === 'building') {
      const identity = await blobIndex.identity;
      await blobIndex.onBuilt(() => assembler.blobIndex(identity) ?? null);
    }
  } catch (e) {
    fail(e);
    await Promise.allSettled(decoding);
  } finally {
    clearInterval(waitTicker);
    signal?.removeEventListener('abort', onAbort);
    if (!going()) assembler.stop();
    callbacks.onBlob?.();
    report();
  }
  if (signal?.aborted) throw new CancelledError();
  if (failure) throw failure;
  return progress;
}

/**
 * Gives the plan an `OSMHeader` frame, decoded here, not in a decode worker: the data frames
 * wait for it (a history file's need another query), and a worker's round trip at a run's
 * start, when the page draws its first frame, had cost them 2–46 ms.
 * @throws Error naming the blob and byte offset, as a decode worker's do.
 */
function headerOf(assembler: QueryAssembler, frame: Frame): HeaderInfo {
  try {
    return JSON.parse(assembler.addHeader(frame.blob, frame.offset, frame.size)) as HeaderInfo;
  } catch (e) {
    throw blobError(frame, (e as Error).message ?? String(e));
  }
}

/**
 * Reads by the index kept for the file when there is one and the plan takes it (a query, not a
 * count-only read); else the full read builds one.
 */
async function chooseIndex(assembler: QueryAssembler, blobIndex: BlobIndexUse, query: boolean): Promise<void> {
  if (query && blobIndex.bytes) {
    try {
      assembler.useIndex(blobIndex.bytes, await blobIndex.identity);
      return;
    } catch (e) {
      blobIndex.onRefused((e as Error).message ?? String(e));
    }
  }
  assembler.buildIndex();
}

/**
 * Fetches the index pages a read names and gives them to the plan. A page refused before the
 * first read has started makes the read a full one (and the index is reported refused);
 * after it, the read cannot go on without it.
 * @throws the fetch's error, or the refusal of a page after the first read started.
 */
async function addIndexPages(assembler: QueryAssembler, pages: PlannedFrame[], blobIndex: BlobIndexUse | undefined, signal: AbortSignal): Promise<void> {
  try {
    if (!blobIndex?.pages) throw new Error('the blob index is corrupt (it names pages, and only its head is here)');
    const bytes = await blobIndex.pages(pages.map((p) => ({ offset: p.offset, size: p.size })), signal);
    pages.forEach((p, i) => assembler.addIndexPage(p.index, bytes[i]));
  } catch (e) {
    if (signal.aborted || assembler.indexStarted()) throw e;
    assembler.dropIndex();
    blobIndex?.onRefused((e as Error).message ?? String(e));
    assembler.buildIndex();
  }
}

/** A planned frame of a read, with its slice `from..to` of the wanted ids. */
type PlannedFrame = ReturnType<typeof plannedFrames>[number];
