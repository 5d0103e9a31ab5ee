/**
 * The query worker: everything between the page and the decode workers runs here, off the
 * page's thread. It opens the source (a local File or a URL), frames it, feeds the pool of decode
 * workers, assembles the answer in Rust, and sends the page only what it draws.
 */
import init, { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import wasmUrl from '../wasm/pkg/pbf_explorer_bg.wasm?url';
import { sourceKey, type CallReply, type CallRequest, type FromQueryWorker, type RunEnd, type RunEvent, type SourceSpec, type ToQueryWorker } from './messages';
import { BufferPool } from './framer/buffers';
import { CancelledError, DecodePool } from './pool/pool';
import { exportPieces } from './export-pieces';
import { geoParquetWriter } from './geoparquet-module';
import { programFor } from './common/elsewhere';
import { readContext, type ContextResult } from './read-context';
import { copiesBytes, copyKey, findCopy, keepCopy, makeCopy, removeCopies, type AreaCopyFound } from './area-copies';
import { askBeside, dropIndex, identityOf, indexFor, isWholeIndex, keptIdentity, keptIndexNames, loadIndex, mayHaveIndex, prepareStore, saveIndex, type PageFetch } from './index-store';
import { keepOutline, keepPlaces, keptOutline, searchPlaces } from './relation-areas';
import { assemblerFor, runQuery, type BlobIndexUse } from './run-query';
import { FetchSource, readsAtRandom, RedirectError } from './source/http-source';
import { FileSource, type Source } from './source/source';
import { warmUp } from './warm-up';
import { CHANGES_MAX_FEATURES, changesInterval, ProgressPace, QUIET_RECHECK_MS, QUIET_START_MS } from './report-pace';
import { isHistory, type ExportFormat, type FileInfo, type Match, type Progress, type Query } from './types';

interface WorkerScope {
  postMessage(message: FromQueryWorker, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToQueryWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;
/** Run events held by {@link together}, to go out as one message. */
let held: { events: RunEvent[]; transfer: Transferable[] } | null = null;
const post = (message: FromQueryWorker, transfer: Transferable[] = []) => {
  if (!held || !('run' in message)) return scope.postMessage(message, transfer);
  // Each piece of map changes is one frame's work for the page: a second one starts a new message.
  if (message.type === 'changes' && held.events.some((e) => e.type === 'changes')) postHeld();
  held.events.push(message);
  held.transfer.push(...transfer);
};

/** Posts the events held so far as one message (a `batch` when several). */
function postHeld(): void {
  const { events, transfer } = held!;
  held = { events: [], transfer: [] };
  if (events.length === 1) scope.postMessage(events[0], transfer);
  else if (events.length > 1) scope.postMessage({ type: 'batch', events }, transfer);
}

/**
 * Sends the run events that `send` posts as one message (`batch`; one per piece of map
 * changes when there are several): the page handles them in one task, so no frame is drawn
 * between them. Posted one by one, a frame came between the header's file info and the rest of
 * a run's end (≈ 5–10 ms of the page's main thread, and a composite).
 */
function together(send: () => void): void {
  held = { events: [], transfer: [] };
  try {
    send();
  } finally {
    postHeld();
    held = null;
  }
}

/**
 * How long (ms) the work after an answer waits at most for the page's `drawn`: a page that
 * draws no frame (hidden, or frozen) would never send it.
 */
const DRAWN_WAIT_MS = 1000;
/** Each export format's media type (IANA's; GeoParquet is a Parquet file). */
const EXPORT_TYPES: Record<ExportFormat, string> = { geojson: 'application/geo+json', geojsonseq: 'application/geo+json-seq', csv: 'text/csv', geoparquet: 'application/vnd.apache.parquet' };
/** The wait for the page's `drawn` (see {@link pageDrew}). */
let drawnWaiter: { run: number; done: () => void } | null = null;

/**
 * Resolves once the page has drawn the end of run `run` (its `drawn`), a newer run starts, or
 * {@link DRAWN_WAIT_MS} have passed. The work after an answer (the basemap's read, the blob
 * index's last step) waits for it: started with the answer, it took the 2 cores from the
 * page as it drew the answer (`docs/decisions.md`).
 */
function pageDrew(run: number): Promise<void> {
  drawnWaiter?.done();
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(), DRAWN_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      if (drawnWaiter?.done === done) drawnWaiter = null;
      resolve();
    };
    drawnWaiter = { run, done };
  });
}

const wasm = init({ module_or_path: wasmUrl });
/** Blob buffers, shared by every read: the decode workers hand them back after use. */
const buffers = new BufferPool();
/** Settles when the warm-up asked for has ended (at once when none was). */
let warmedUp: Promise<void> = Promise.resolve();
/** Set by the first run: a warm-up still going stops at its next blob. */
let busy = false;
const startPool = (size?: number) => {
  const fresh = new DecodePool(size);
  fresh.onSpent = (buffer) => buffers.put(buffer);
  void fresh.ready().then(() => warmedUp).then(() => post({ type: 'ready', decodeWorkers: fresh.size }));
  return fresh;
};
let pool = startPool();
prepareStore();

/** One run of a query. Its answer stays the page's after it ends, until the next run starts. */
class Run {
  readonly controller = new AbortController();
  /** Answers the page's question before a large download from another origin. */
  confirm: ((yes: boolean) => void) | null = null;
  /** The blob index of the run's file, read or built by it. */
  index: Uint8Array | null = null;
  /** Makes and keeps the index the run's full read noted: called once its answer is sent. */
  finishIndex: (() => Promise<void>) | null = null;
  /** The list's filter (`filter` call): its rows, and the exports, hold only the matches it keeps. */
  filter = '';

  /**
   * @param info what the run learns about its file, and `query` what it asked (both the
   *   export's `metadata`).
   */
  constructor(
    readonly id: number,
    readonly assembler: QueryAssembler,
    readonly info: FileInfo,
    readonly query: Query | null,
  ) {}
}
/** The run under way, or the last one. */
let current: Run | null = null;
/** The last run's answer, kept for list rows, popups and the export until the next run. */
let answer: Run | null = null;
/** The last run the page cancelled: its cancel may come while the run waits for Wasm to load. */
let cancelledRun = -1;
/** Settles once the last index built is kept (or failed to be): the next read looks for it. */
let indexKept: Promise<void> = Promise.resolve();

/** The source of `spec`; a URL's asks before following a redirect ({@link redirectAllowed}). */
function openSource(spec: SourceSpec): Source {
  if (spec.kind === 'file') return new FileSource(spec.file);
  const source = new FetchSource(spec.url);
  source.askBeforeRedirect = true;
  return source;
}

/**
 * Opens `source`; when its server redirects it elsewhere, asks the page first (a redirect's
 * target is a host the person did not agree to contact). False for a no.
 */
async function redirectAllowed(run: Run, source: FetchSource): Promise<boolean> {
  try {
    await source.open(run.controller.signal);
    return true;
  } catch (e) {
    if (!(e instanceof RedirectError)) throw e;
  }
  if (!(await pageSaysYes(run, { host: source.host, bytes: NaN, redirect: true }))) return false;
  source.askBeforeRedirect = false;
  await source.open(run.controller.signal);
  return true;
}

/** Posts a `confirm` question of `run`'s to the page and resolves with its answer (false if the run stops first). */
function pageSaysYes(run: Run, question: { host: string; bytes: number; redirect: boolean }): Promise<boolean> {
  post({ type: 'confirm', run: run.id, ...question });
  return new Promise((resolve) => {
    run.confirm = resolve;
    run.controller.signal.addEventListener('abort', () => resolve(false), { once: true });
  });
}

/** Asks the page before reading a large (or unknown-size) file from another origin. */
async function confirmed(run: Run, source: FetchSource, above: number): Promise<boolean> {
  if (new URL(source.name).origin === location.origin) return true;
  await source.open(run.controller.signal);
  if (source.size <= above) return true;
  source.release(); // nothing more comes before a yes
  return pageSaysYes(run, { host: source.host, bytes: source.size, redirect: false });
}

/** Sends the map changes waiting in the assembler, in pieces the page can apply in one frame each. */
function flushChanges(run: Run): void {
  const count = run.assembler.count();
  do {
    const changes = run.assembler.drainChanges(CHANGES_MAX_FEATURES);
    post({ type: 'changes', run: run.id, changes, count, mapSample: run.assembler.mapSample() }, [changes.buffer]);
  } while (run.assembler.pendingChanges() > 0);
}

/**
 * Set once this worker's Wasm instance trapped: the answer in it cannot be read any more (wasm-bindgen
 * then refuses every call on it with "recursive use of an object"), so calls say so plainly.
 */
let answerLost = false;

/**
 * What `e` says, for the page. A Wasm trap (a panic, running out of memory, a stack overflow)
 * can leave the instance inconsistent: the page is told, and starts a fresh query worker before
 * its next run (decode workers are replaced by the pool the same way).
 */
function failure(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const trapped = e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(message));
  if (!trapped) return message;
  answerLost = true;
  post({ type: 'trapped' });
  return `the decoder failed (${message}); the next query starts a fresh one`;
}

async function start(msg: Extract<ToQueryWorker, { type: 'run' }>): Promise<void> {
  current?.controller.abort();
  await wasm;
  answer?.assembler.free();
  answer = null;
  let assembler: QueryAssembler;
  const file = sourceKey(msg.source);
  lastFile = file;
  // A relation's outline read by an earlier run on this file is the area at once.
  const outline = msg.query ? keptOutline(file, msg.query.area) : null;
  try {
    // The query is parsed here, before any byte is read: a syntax error ends the run at once.
    assembler = assemblerFor(outline && msg.query ? { ...msg.query, area: { polygon: outline } } : msg.query);
  } catch (e) {
    post({ type: 'end', run: msg.run, status: 'error', message: failure(e), count: 0, wasmBytes: 0, blobIndex: false });
    return;
  }
  const info: FileInfo = { name: msg.source.kind === 'file' ? msg.source.file.name : msg.source.url, size: NaN, header: null, facts: null };
  const run = new Run(msg.run, assembler, info, msg.query);
  answer = run;
  current = run;
  if (cancelledRun === run.id) run.controller.abort(); // cancelled while Wasm was loading
  const isCurrent = () => current === run;
  const relation = msg.query && typeof msg.query.area === 'object' && 'relation' in msg.query.area ? msg.query.area.relation : null;
  if (relation !== null) post({ type: 'outline', run: run.id, relation, parts: outline });
  let changesTimer: ReturnType<typeof setTimeout> | null = null;
  let shownAny = false;
  /** Whether the run's quiet start (QUIET_START_MS) is over; until then the page hears nothing. */
  let quietOver = false;
  /** Set while the header's file info waits for the quiet start to end. */
  let infoHeld = false;
  const sendInfo = () => {
    infoHeld = false;
    post({ type: 'file-info', run: run.id, info });
  };
  const scheduleChanges = () => {
    if (!quietOver) return; // the quiet start's end sends them
    // The first matches after the quiet start go out at once; later ones wait for the interval.
    changesTimer ??= setTimeout(() => {
      changesTimer = null;
      if (!isCurrent()) return;
      shownAny = true;
      flushChanges(run);
    }, shownAny ? changesInterval(assembler.count()) : 0);
  };
  const pace = new ProgressPace();
  const started = performance.now();
  // What the quiet start held goes out as one message, for the page to draw it in one frame.
  const endQuiet = () => {
    if (!isCurrent()) return;
    if (pace.quietGoesOn(performance.now() - started)) {
      quietTimer = setTimeout(endQuiet, QUIET_RECHECK_MS);
      return;
    }
    quietOver = true;
    together(() => {
      if (infoHeld) sendInfo();
      const progress = pace.takeHeld(performance.now());
      if (progress) post({ type: 'progress', run: run.id, progress });
      if (assembler.pendingChanges() > 0) {
        shownAny = true;
        flushChanges(run);
      }
    });
  };
  let quietTimer = setTimeout(endQuiet, QUIET_START_MS);
  let end: RunEnd;
  let source: Source | null = null;
  let copy: AreaCopyFound | null = null;
  /** What the run reads: the file, or the area copy kept for it. */
  let read: Source | null = null;
  let final: Progress | null = null;
  try {
    if (run.controller.signal.aborted) throw new CancelledError();
    source = openSource(msg.source);
    if (source instanceof FetchSource && !(await redirectAllowed(run, source))) throw new CancelledError();
    if (msg.confirmAbove !== null && source instanceof FetchSource && !(await confirmed(run, source, msg.confirmAbove))) {
      throw new CancelledError();
    }
    // A copy of this file's area, kept after an earlier question, is read in its place.
    copy = msg.areaCopies ? await areaCopyFor(run, msg.source, source) : null;
    read = copy ? new FileSource(new File([copy.file], source.name)) : source;
    const blobIndex = copy ? copyIndexUse(read, copy) : msg.query && msg.blobIndex ? await blobIndexFor(run, source) : undefined;
    const withCopy = (progress: Progress): Progress => (copy ? { ...progress, areaCopy: copy.meta.bytes } : progress);
    final = await runQuery(read, msg.query, pool, assembler, {
      onHeader: (header) => {
        info.header = copy ? copy.meta.info.header : header;
        info.size = source!.size;
        if (!isCurrent()) return;
        if (quietOver) sendInfo();
        else infoHeld = true;
      },
      onProgress: (progress) => {
        // Paced (report-pace.ts); the run's final report follows anyway.
        if (!isCurrent() || !pace.offer(withCopy(progress), performance.now())) return;
        if (infoHeld) sendInfo();
        post({ type: 'progress', run: run.id, progress: withCopy(progress) });
      },
      onBlob: () => isCurrent() && assembler.pendingChanges() > 0 && scheduleChanges(),
      onIndexMismatch: (message) => isCurrent() && post({ type: 'index-mismatch', run: run.id, message }),
      requests: source instanceof FetchSource ? source.stats : undefined,
    }, run.controller.signal, { buffers }, blobIndex);
    final = withCopy(final);
    end = { status: 'done' };
  } catch (e) {
    const cancelled = e instanceof CancelledError || run.controller.signal.aborted;
    end = cancelled ? { status: 'cancelled' } : { status: 'error', message: failure(e) };
  }
  if (source instanceof FetchSource) source.release(); // a read that stopped early leaves no reply downloading
  if (changesTimer) clearTimeout(changesTimer);
  clearTimeout(quietTimer);
  if (!isCurrent()) return;
  const wasmBytes = (await wasm).memory.buffer.byteLength + pool.wasmBytes();
  const finishIndex = run.finishIndex;
  run.finishIndex = null;
  // A read of an area copy learnt the copy's facts: the file's were kept with it.
  const facts: FileInfo['facts'] = end.status !== 'done' ? null : copy ? copy.meta.info.facts : JSON.parse(assembler.fileFacts());
  const outlineText = relation !== null ? assembler.outline() : undefined;
  const found: number[][][][] | null = outlineText ? JSON.parse(outlineText) : null;
  if (relation !== null && found) keepOutline(file, relation, found);
  // A copy holds only its area's places: the file's are those of a whole read of it.
  const places = copy ? undefined : assembler.takePlaces();
  if (places) keepPlaces(file, places);
  // The run's last messages go out as one, for the page to draw them in one frame: the header's
  // info first, as it came, should the run have ended in its quiet start.
  together(() => {
    if (infoHeld) sendInfo();
    if (final) post({ type: 'progress', run: run.id, progress: final }); // the last report may have been held back
    flushChanges(run); // what was found before a failure stays on the map
    if (facts) post({ type: 'file-info', run: run.id, info: { ...info, facts } });
    if (relation !== null && found) post({ type: 'outline', run: run.id, relation, parts: found });
    if (places) post({ type: 'places', run: run.id, count: places.count() });
    // A change view's counts, also of what a failed or cancelled one found.
    const changeView = msg.query?.from !== undefined && (end.status === 'done' || assembler.count() > 0);
    const changes = changeView ? { changes: Array.from(assembler.changeCounts()) } : {};
    const bounds = assembler.answerBounds();
    post({ type: 'end', run: run.id, ...end, count: assembler.count(), wasmBytes, blobIndex: run.index !== null || finishIndex !== null, ...changes, ...(bounds ? { bounds: Array.from(bounds) } : {}) });
  });
  info.facts = facts; // once the header's info above is sent without them
  // The work after the answer waits for the page to have drawn it, not the other way round.
  const drawn = pageDrew(run.id);
  if (finishIndex && answer === run && final) {
    const read = final;
    indexKept = drawn.then(finishIndex).then(() => {
      if (isCurrent() && run.index) post({ type: 'progress', run: run.id, progress: { ...read, blobIndex: 'kept' } });
    });
  }
  if (end.status !== 'done' || !msg.query || !source) return;
  await drawn;
  if (!isCurrent() || run.controller.signal.aborted) return;
  if (msg.context) await drawContext(run, read ?? source, contextKey(msg.source, msg.query));
  if (!copy && msg.areaCopies) await keepAreaCopy(run, msg.source, source);
}

/**
 * The area copy kept for `spec`'s file that answers `run`'s query (its area lies within the
 * copy's bbox), or null: none for a URL, a query of the whole file or of a moment.
 */
async function areaCopyFor(run: Run, spec: SourceSpec, source: Source): Promise<AreaCopyFound | null> {
  if (spec.kind !== 'file' || !run.assembler.areaCopyBbox()) return null;
  const identity = await identityOf(source, run.controller.signal);
  return identity && findCopy(copyKey(identity, spec.file.lastModified), (bbox) => run.assembler.answersWithin(Float64Array.from(bbox)));
}

/** How a read of an area copy uses the copy's own index (never handed out as the file's). */
function copyIndexUse(read: Source, copy: AreaCopyFound): BlobIndexUse {
  const identity = identityOf(read).then((id) => id ?? Promise.reject(new Error('the area copy has no identity')));
  identity.catch(() => {});
  return { identity, bytes: copy.index, pages: null, onBuilt: () => {}, onRefused: () => {} };
}

/** How long (ms) after a question's follow-up work its area copy starts, unless a new question came. */
const COPY_DELAY_MS = 2000;
/** How often (ms) the page hears how far an area copy is. */
const COPY_REPORT_MS = 500;

/**
 * After a question of an area on a local file (its answer drawn, its basemap read), makes and
 * keeps the copy of the wider area around it (`area-copies.ts`), telling the page how far it
 * is and what it kept. A new run stops it; a history file has none.
 */
async function keepAreaCopy(run: Run, spec: SourceSpec, source: Source): Promise<void> {
  const bbox = run.assembler.areaCopyBbox();
  if (spec.kind !== 'file' || !bbox || !run.info.header || isHistory(run.info.header) || !run.info.facts) return;
  const signal = run.controller.signal;
  try {
    // A person's next question often comes at once (a refinement): it should not find the
    // worker busy with a copy it will stop anyway.
    await new Promise((resolve) => setTimeout(resolve, COPY_DELAY_MS));
    if (current !== run || signal.aborted) return;
    const identity = await identityOf(source, signal);
    if (!identity) return;
    let told = performance.now();
    post({ type: 'area-copy', run: run.id, state: 'making', share: 0, bytes: 0 });
    const { copy, index } = await makeCopy(source, Array.from(bbox), signal, (share) => {
      if (current !== run || performance.now() - told < COPY_REPORT_MS) return;
      told = performance.now();
      post({ type: 'area-copy', run: run.id, state: 'making', share, bytes: 0 });
    });
    await keepCopy(copyKey(identity, spec.file.lastModified), { bbox: Array.from(bbox), bytes: copy.size, indexBytes: index.length, info: { ...run.info } }, copy, index);
    if (current === run) post({ type: 'area-copy', run: run.id, state: 'kept', share: 1, bytes: copy.size + index.length });
  } catch (e) {
    if (e instanceof CancelledError || signal.aborted) return;
    if (current === run) post({ type: 'area-copy', run: run.id, state: 'failed', share: 0, bytes: 0, message: failure(e) });
  }
}

/**
 * The blob index `run` reads `source` by, or builds while reading it (undefined when the file
 * cannot be read at random: then every query reads it whole).
 */
async function blobIndexFor(run: Run, source: Source): Promise<BlobIndexUse | undefined> {
  const signal = run.controller.signal;
  await indexKept;
  // A server's .idx is asked for along with the probe and the identity's reads, and dropped
  // when an index is kept here.
  const beside = askBeside(source);
  signal.addEventListener('abort', beside.stop, { once: true });
  const kept = keptIndexNames(); // had by the time a probe's reply gives the size
  try {
    await source.open(signal);
    if (readsAtRandom(source) && Number.isFinite(source.size) && !(await mayHaveIndex(source.size, kept))) {
      // No index kept for a file of this size: unless the server has one beside the file, the
      // read starts now and builds one; the identity (2 MiB read and hashed, 7–20 ms; over HTTP
      // the probe's tail, a reply of its own) is had alongside, and awaited at the read's end.
      const identity = identityOf(source, signal).then((id) => id ?? Promise.reject(new Error(`${source.name} has no identity`)));
      identity.catch(() => {}); // met there
      const served = await beside.bytes;
      if (!served) return blobIndexUse(run, source, identity, null);
      // Read by the server's index, which its identity checks.
      return blobIndexUse(run, source, Promise.resolve(await identity), served, beside.pages);
    }
    const found = await indexFor(source, beside, (identity) => loadIndex(keptIdentity(identity, source)), signal);
    return found ? blobIndexUse(run, source, Promise.resolve(found.identity), found.bytes, beside.pages) : undefined;
  } finally {
    beside.stop(); // settled, or no longer wanted
    signal.removeEventListener('abort', beside.stop);
  }
}

/**
 * How `run`'s read uses the index `bytes` of the file `identity` (null: none, so the read
 * builds one); `pages` fetches the pages of a server's paged index. What it builds is kept
 * for `source` alone ({@link keptIdentity}).
 */
function blobIndexUse(run: Run, source: Source, identity: Promise<Uint8Array>, bytes: Uint8Array | null, pages: PageFetch | null = null): BlobIndexUse {
  const kept = identity.then((id) => keptIdentity(id, source));
  kept.catch(() => {}); // met by `identity`'s own users
  // A paged index's head alone is not an index to hand out.
  run.index = bytes && isWholeIndex(bytes) ? bytes : null;
  return {
    identity,
    bytes,
    pages,
    onBuilt: (finish) => {
      run.finishIndex = async () => {
        run.index = finish();
        if (run.index) await saveIndex(await kept, run.index);
      };
    },
    onRefused: () => {
      run.index = null;
      void kept.then(dropIndex);
    },
  };
}

/** What the basemap drawn last was read for (the file and the area), once it was sent whole. */
let drawnContext: string | null = null;

function contextKey(spec: SourceSpec, query: Query): string {
  return JSON.stringify([sourceKey(spec), query.area]);
}

/**
 * Reads the basemap of the run's area (see `readContext`) and sends it, or the reason there is
 * none; sends nothing when the page already shows this file's basemap of this area.
 */
async function drawContext(run: Run, source: Source, key: string): Promise<void> {
  if (key === drawnContext) return;
  drawnContext = null;
  post({ type: 'context', run: run.id, features: null, note: 'drawing the basemap from the file…', drawing: true });
  let result: ContextResult;
  try {
    result = await readContext(source, pool, run.assembler, run.controller.signal, { buffers });
  } catch (e) {
    if (e instanceof CancelledError || run.controller.signal.aborted) return;
    result = { features: null, note: `no basemap: ${failure(e)}` };
  }
  if (current !== run) return;
  const features = result.features;
  post({ type: 'context', run: run.id, features, note: result.note, drawing: false }, features ? [features.buffer] : []);
  drawnContext = key;
}

/** Places a search of the place field lists. */
const PLACES_SHOWN = 20;
/** The file of the last run (`sourceKey`): the place field searches its places. */
let lastFile = '';

/** Keys, and values of a key, listed in tag statistics. */
const STATS_TOP = 25;
/** Values of a key the map colours each in a colour of its own (the rest are "other"): `STYLE_COLOURS` in web/map-view.ts has as many. */
const STYLE_TOP = 8;

/** Answers a page's call from the last run's answer. */
async function reply(req: CallRequest): Promise<CallReply> {
  if (answerLost && req.call !== 'area-copies' && req.call !== 'check') throw new Error('this answer was lost when the decoder failed: run the query again');
  const rowsOf = (json: string): Match[] => JSON.parse(json);
  switch (req.call) {
    case 'rows':
      return { call: 'rows', id: req.id, result: answer ? rowsOf(answer.assembler.rows(req.start, req.count)) : [] };
    case 'get': {
      const json = answer?.assembler.get(req.osmType, req.osmId, req.whole);
      return { call: 'get', id: req.id, result: json ? JSON.parse(json) : null };
    }
    case 'order':
      answer?.assembler.orderBy(req.column, req.descending);
      return { call: 'order', id: req.id, result: null };
    case 'filter':
      if (answer) answer.filter = req.text;
      return { call: 'filter', id: req.id, result: answer ? answer.assembler.filterRows(req.text) : 0 };
    case 'row-of':
      return { call: 'row-of', id: req.id, result: answer ? answer.assembler.rowOf(req.osmType, req.osmId) : -1 };
    case 'stats': {
      const empty = { types: [0, 0, 0], keys: [], values: [], long_keys: 0, long_values: 0, columns: [] };
      return { call: 'stats', id: req.id, result: answer ? JSON.parse(answer.assembler.tagStats(req.key, STATS_TOP)) : empty };
    }
    case 'style-classes': {
      const empty = { values: [], other: 0, none: 0, features: [] };
      return { call: 'style-classes', id: req.id, result: answer ? JSON.parse(answer.assembler.styleClasses(req.key, STYLE_TOP)) : empty };
    }
    case 'check': {
      await wasm;
      try {
        assemblerFor(req.query).free();
        return { call: 'check', id: req.id, result: null };
      } catch (e) {
        // A trap is no refusal: the page is told (`failure`), and its run starts a fresh worker.
        const message = failure(e);
        return { call: 'check', id: req.id, result: answerLost ? null : message };
      }
    }
    case 'elsewhere': {
      await wasm;
      try {
        return { call: 'elsewhere', id: req.id, result: { program: programFor(req.engine, req.file, req.query) } };
      } catch (e) {
        return { call: 'elsewhere', id: req.id, result: { refused: (e as Error).message } };
      }
    }
    case 'places':
      return { call: 'places', id: req.id, result: searchPlaces(lastFile, req.text, PLACES_SHOWN) };
    case 'area-copies':
      if (req.remove) await removeCopies();
      return { call: 'area-copies', id: req.id, result: await copiesBytes() };
    case 'blob-index':
      await indexKept;
      return { call: 'blob-index', id: req.id, result: answer?.index ? new Blob([answer.index as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }) : null };
    case 'export': {
      // Streamed into a Blob piece by piece: a Blob made of a Blob and a piece (bytes or a string) keeps the first by
      // reference, so each piece is garbage once added and the answer is never held twice. A
      // turn of the event loop after each piece lets its bytes leave this worker for the
      // browser's blob storage: within one long task, all of them piled up here (a 2.1 GB CSV
      // took the tab to 3.3 GB).
      let file = new Blob([], { type: EXPORT_TYPES[req.format] });
      const exporting = answer;
      const parquet = req.format === 'geoparquet' ? await geoParquetWriter() : undefined;
      if (answer !== exporting) throw new Error('export stopped: a new query replaced the answer');
      if (exporting) {
        for (const piece of exportPieces(exporting.assembler, req.format, { generator: 'pbf-explorer', file: exporting.info, query: exporting.query, ...(exporting.filter ? { filter: exporting.filter } : {}) }, parquet)) {
          file = new Blob([file, piece as Uint8Array<ArrayBuffer> | string], { type: file.type });
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (answer !== exporting) throw new Error('export stopped: a new query replaced the answer');
        }
      }
      return { call: 'export', id: req.id, result: file };
    }
  }
}

scope.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'run') {
    busy = true;
    drawnWaiter?.done(); // the last run's after-work goes on (its basemap is not read)
  }
  if (msg.type === 'warm-up') warmedUp = wasm.then(() => warmUp(msg.url, () => busy));
  else if (msg.type === 'pool') {
    current?.controller.abort();
    pool.terminate();
    pool = startPool(msg.size);
  } else if (msg.type === 'run') void start(msg);
  else if (msg.type === 'cancel') {
    cancelledRun = msg.run;
    if (current?.id === msg.run) current.controller.abort();
  }
  else if (msg.type === 'confirmed' && current?.id === msg.run) current.confirm?.(msg.yes);
  else if (msg.type === 'drawn' && drawnWaiter?.run === msg.run) drawnWaiter.done();
  else if (msg.type === 'call') {
    reply(msg).then(
      (r) => post({ type: 'reply', ...r }),
      (e) => post({ type: 'call-error', id: msg.id, message: failure(e) }),
    );
  }
};
