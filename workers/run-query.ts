/**
 * Runs one query inside the query worker: source → framer → pool of decode workers →
 * assembler (Rust, in this worker's Wasm instance). The page is told only what changed.
 *
 * A read happens in up to three passes. The first reads every blob in file order. When the
 * query's area held more node locations than the assembler keeps, a second, targeted pass
 * reads only the blobs whose node-id range and bbox can hold a node of a candidate way. Once
 * the matching ways are known, a geometry pass reads only the blobs whose node-id range holds
 * a node of theirs lying outside the area (their full geometry is drawn, not clipped). Before
 * the second pass, a member read fetches the member ways of candidate relations.
 * With a blob index, the first pass reads only the blobs it names (those that can hold a match
 * or a node location of the area); without one, a full read builds it when asked.
 * On an error or a cancel, what was found so far stays in the assembler.
 */
import { QueryAssembler, readHeader } from '../wasm/pkg/pbf_explorer.js';
import { readFrames, readFramesAt, type Frame, type FrameAt, type FramerOptions } from './framer/framer';
import { blobError, CancelledError, type DecodePool } from './pool/pool';
import { FileOrder } from './file-order';
import type { Source } from './source/source';
import { isHistory, type HeaderInfo, type Progress, type Query } from './types';

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
  /** Called when `bytes` cannot be used (corrupt, or of another file), with the reason; the read goes on in full. */
  onRefused: (reason: string) => void;
}

export interface RunCallbacks {
  onHeader?: (header: HeaderInfo) => void;
  onProgress?: (progress: Progress) => void;
  /** Called after each blob the assembler took in (it may hold changes for the page). */
  onBlob?: () => void;
}

/** A query without conditions over the whole file: the assembler of a count-only read. */
const EVERYTHING: Query = { q: '', area: 'everywhere' };
/** Its scans only count elements: with `index`, a count-only read that builds the blob index. */
const COUNT_ONLY: Query = { ...EVERYTHING, count_only: true };

/**
 * The assembler of a read for `query` (null: a count-only read). The query is parsed here, so a
 * syntax error ends a run before any byte is read.
 * @throws Error with the query's syntax error and its column.
 */
export function assemblerFor(query: Query | null): QueryAssembler {
  return new QueryAssembler(JSON.stringify(query ?? EVERYTHING), 0);
}

/** `[index, offset, size, from, to]` per blob, as `QueryAssembler.planSecondRead` and `planGeometryRead` give it. */
export function plannedFrames(plan: Float64Array): (FrameAt & { from: number; to: number })[] {
  const frames = [];
  for (let i = 0; i < plan.length; i += 5) {
    frames.push({ index: plan[i], offset: plan[i + 1], size: plan[i + 2], from: plan[i + 3], to: plan[i + 4] });
  }
  return frames;
}

/**
 * Reads `source`, decodes every blob in `pool` and assembles the matches of `query` in
 * `assembler` (`query` null: only count elements; with `blobIndex`, and no index to read by,
 * the read also builds the file's index). Resolves when done.
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
    if (source.stats) {
      progress.requestsInFlight = source.stats.requestsInFlight;
      progress.retries = source.stats.retries;
      progress.rangeSupported = source.stats.rangeSupported;
    }
    callbacks.onProgress?.({ ...progress });
  };
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
  const decoding = new Set<Promise<void>>();
  const track = (job: Promise<void>) => {
    decoding.add(job);
    void job.finally(() => decoding.delete(job));
  };
  const onScan = (frame: Frame, scan: ArrayBuffer) => {
    if (signal?.aborted) return;
    progress.blobsDecoded++;
    if (assembler.addBlock(frame.index, frame.offset, frame.size, new Uint8Array(scan))) pool.setAreaNodes(false);
    const filter = assembler.areaFilterChange();
    if (filter) pool.setAreaFilter(filter.length > 0 ? filter : null);
    const c = assembler.counts();
    progress.elements = c[0] + c[1] + c[2];
    report();
    callbacks.onBlob?.();
  };
  const inOrder = new FileOrder<[Frame, ArrayBuffer]>((_, [frame, scan]) => onScan(frame, scan));
  const options = { ...source.readOptions, ...framerOptions, signal: stop.signal };
  let finished = false;
  try {
    await source.open(stop.signal);
    progress.totalBytes = source.size;
    const plan = query && blobIndex ? await indexedPlan(assembler, blobIndex) : null;
    if (plan) source.release?.(); // only the planned blobs are read
    const building = blobIndex !== undefined && plan === null;
    if (blobIndex) progress.blobIndex = plan ? 'used' : 'building';
    report();
    pool.setQuery(building ? { ...(query ?? COUNT_ONLY), index: true } : query);
    const frames = plan
      ? readFramesAt(source, plan, options)
      : readFrames(source, { ...options, onRead: (n) => ((progress.bytesRead = n), report()) });
    let header: HeaderInfo | null = null;
    let headerFrame: Frame | null = null;
    for await (const frame of frames) {
      if (stop.signal.aborted) break;
      if (plan) progress.bytesRead += frame.size;
      if (frame.type === 'OSMHeader') {
        header = headerOf(frame);
        headerFrame = frame;
        callbacks.onHeader?.(header);
        if (!isHistory(header)) assembler.expectSorted();
        if (plan && isHistory(header)) throw new Error('the blob index is of a file without history; this one is a history file');
        // A history file holds every version: the decoders choose those current at `query.at`.
        if (query && isHistory(header)) pool.setQuery({ ...query, history: true });
      } else if (frame.type === 'OSMData') {
        await pool.waitForSpace();
        inOrder.dispatched(frame.index);
        const job = pool.scan(frame).then((scan) => inOrder.done(frame.index, [frame, scan]));
        track(job.catch((e) => (inOrder.failed(frame.index), fail(e))));
      } // unknown frame types are skipped, as the spec says
    }
    await Promise.all(decoding);
    const targeted = (plan: Float64Array, decode: (frame: Frame, planned: PlannedFrame) => Promise<ArrayBuffer>, add: (index: number, found: Uint8Array) => void) =>
      targetedRead(source, pool, plan, decode, add, options, progress, report, track, fail);
    const reread = (plan: Float64Array, add: (index: number, found: Uint8Array) => void, ways = false) => {
      const wanted = assembler.wanted();
      return targeted(plan, (frame, f) => pool.locate(frame, wanted.slice(f.from, f.to), ways), add);
    };
    // A file not sorted by type then id: the blobs whose ways were dropped are scanned again, whole.
    pool.setAreaFilter(null);
    if (!failure && !stop.signal.aborted) await targeted(assembler.planRescanRead(), (frame) => pool.scan(frame), (i, scan) => assembler.addRescannedWays(i, scan));
    await Promise.all(decoding);
    if (!failure && !stop.signal.aborted) await reread(assembler.planMemberRead(), (i, found) => assembler.addMemberWays(i, found), true);
    await Promise.all(decoding);
    if (!failure && !stop.signal.aborted) await reread(assembler.planSecondRead(), (i, found) => assembler.addLocations(i, found));
    await Promise.all(decoding);
    assembler.finish();
    finished = true;
    if (!failure && !stop.signal.aborted) {
      await reread(assembler.planGeometryRead(), (i, found) => assembler.addWayLocations(i, found));
      await Promise.all(decoding);
      if (!failure && !stop.signal.aborted) assembler.finishGeometry();
    }
    if (building && !failure && !stop.signal.aborted) {
      const identity = await blobIndex!.identity;
      if (header && headerFrame && !isHistory(header)) {
        const [timestamp, frame] = [header.replication_timestamp ?? NaN, headerFrame];
        await blobIndex!.onBuilt(() => assembler.blobIndex(identity, timestamp, frame.offset, frame.size) ?? null);
      }
    }
  } catch (e) {
    fail(e);
    await Promise.allSettled(decoding);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) assembler.finish();
    callbacks.onBlob?.();
    report();
  }
  if (signal?.aborted) throw new CancelledError();
  if (failure) throw failure;
  return progress;
}

/**
 * Decodes an `OSMHeader` frame here, not in a decode worker: the data frames wait for it (a
 * history file's need another query), and a worker's round trip at a run's start, when the
 * page draws its first frame, had cost them 2–46 ms.
 * @throws Error naming the blob and byte offset, as a decode worker's do.
 */
function headerOf(frame: Frame): HeaderInfo {
  try {
    return JSON.parse(readHeader(frame.blob)) as HeaderInfo;
  } catch (e) {
    throw blobError(frame, (e as Error).message ?? String(e));
  }
}

/** The frames an indexed read takes (the OSMHeader's first), or null when the index is refused. */
async function indexedPlan(assembler: QueryAssembler, blobIndex: BlobIndexUse): Promise<FrameAt[] | null> {
  if (!blobIndex.bytes) return null;
  try {
    return plannedFrames(new Float64Array(assembler.useIndex(blobIndex.bytes, await blobIndex.identity)));
  } catch (e) {
    blobIndex.onRefused((e as Error).message ?? String(e));
    return null;
  }
}

/** A planned frame of a targeted read, with its slice `from..to` of the wanted ids. */
type PlannedFrame = ReturnType<typeof plannedFrames>[number];

/**
 * A targeted read: only the blobs `plan` names (see {@link plannedFrames}), each handed to a
 * decode worker by `decode` (a scan, or a search for its slice of the wanted ids); what the
 * worker returns goes to `add`.
 */
async function targetedRead(
  source: Source,
  pool: DecodePool,
  plan: Float64Array,
  decode: (frame: Frame, planned: PlannedFrame) => Promise<ArrayBuffer>,
  add: (index: number, found: Uint8Array) => void,
  options: FramerOptions,
  progress: Progress,
  report: () => void,
  track: (job: Promise<void>) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  const wantedFrames = plannedFrames(plan);
  if (wantedFrames.length === 0) return;
  const byOffset = new Map(wantedFrames.map((f) => [f.offset, f]));
  for await (const frame of readFramesAt(source, wantedFrames, options)) {
    if (options.signal?.aborted) break;
    const f = byOffset.get(frame.offset)!;
    await pool.waitForSpace();
    const job = decode(frame, f).then((found) => {
      add(frame.index, new Uint8Array(found));
      progress.blobsReread++;
      report();
    });
    track(job.catch(fail));
  }
}
