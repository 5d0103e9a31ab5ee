/**
 * The page's handle on the query worker: starts runs, routes their events to the caller, and
 * makes the request/reply calls (list rows, one match, the export) look like async functions.
 * The page imports this and the shared types, nothing else of the pipeline.
 */
import type { CallReply, CallRequest, FromQueryWorker, RunEnd, RunEvent, SourceSpec, ToQueryWorker } from '../workers/messages';
import type { ExportFormat, FileInfo, Match, Place, Progress, Query, StyleClasses, TagStats } from '../workers/types';
import { contextFeatures, mapChanges } from '../workers/common/wire';
import type { Engine } from '../workers/common/elsewhere';

/** How long a run waits for the query worker's check of its query (ms) before it starts anyway. */
const CHECK_WAIT_MS = 2000;

export type { SourceSpec, RunEnd };
export { sourceKey } from '../workers/messages';

/** What a run tells its caller while it goes. */
export interface RunHandlers {
  /** What is known about the file: once its header is read, again after a whole read. */
  onFileInfo?: (info: FileInfo) => void;
  onProgress?: (progress: Progress) => void;
  /**
   * Map changes (`{remove, add}`, see `FromQueryWorker`), the match count after them, and the
   * map's sample (it draws 1 match in `mapSample`).
   */
  onChanges?: (changes: { remove: number[]; add: GeoJSON.Feature[] }, count: number, mapSample: number) => void;
  /**
   * A blob did not match the blob index read by (`message` says which): the matches shown so
   * far are dropped (clear them) and the file is read again whole.
   */
  onIndexMismatch?: (message: string) => void;
  /**
   * After a run's end: its basemap (`features`, a FeatureCollection whose features carry
   * `{class}`, see {@link contextFeatures}), or null with a `note` saying why not; with
   * `drawing`, only that the read has started (the basemap drawn before stays meanwhile).
   */
  onContext?: (features: GeoJSON.FeatureCollection | null, note: string | null, drawing: boolean) => void;
  /**
   * The outline of the relation that is the area (GeoJSON MultiPolygon coordinates), or null
   * while it is being read, before the matches inside it.
   */
  onOutline?: (relation: number, parts: number[][][][] | null) => void;
  /** `count` named boundaries and multipolygons of the file can be searched ({@link QueryClient.places}). */
  onPlaces?: (count: number) => void;
  /** The area copy made after the answer (docs/optimize.md, "Area copies"): how far, or what was kept. */
  onAreaCopy?: (state: 'making' | 'kept' | 'failed', share: number, bytes: number, message?: string) => void;
  /** A large cross-origin download (or, `redirect`, a redirect from `host` to an address not shown) waits for a yes. */
  onConfirm?: (host: string, bytes: number, redirect: boolean) => Promise<boolean>;
}

/**
 * How a run ended, with the final match count and the Wasm memory the workers hold (bytes);
 * `replaced` when a newer run ended it (its count is then 0: the page no longer shows it).
 */
export type RunResult = RunEnd & { count: number; wasmBytes: number; blobIndex?: boolean; replaced?: boolean; changes?: number[]; bounds?: number[] };

/** Calls `f` once the page has drawn its next frame (soon, in a hidden page, which draws none). */
function afterNextFrame(f: () => void): void {
  if (document.visibilityState === 'hidden') setTimeout(f, 0);
  else requestAnimationFrame(() => setTimeout(f, 0));
}

/**
 * The query worker keeps its Wasm memory at its peak; past this, it is restarted before the
 * next run so the memory goes back to the system.
 */
const RESTART_ABOVE_BYTES = 256 << 20;

interface Pending {
  settle: (reply: CallReply) => void;
  reject: (e: Error) => void;
}

export class QueryClient {
  private worker!: Worker;
  private runId = 0;
  private callId = 0;
  private handlers: RunHandlers = {};
  private ending: ((end: RunResult) => void) | null = null;
  private calls = new Map<number, Pending>();
  private lastWasmBytes = 0;
  /** The query worker's Wasm trapped: it is replaced before the next run. */
  private trapped = false;
  /** Whether runs draw the basemap from the file after their answer (not with an online one). */
  drawContext = true;
  /** Whether runs read by a kept blob index and build one on a full read (the bench turns it off to time full reads). */
  blobIndex = true;
  /** Whether runs on a local file read a kept area copy, and keep one after their answer (docs/optimize.md, "Area copies"). */
  areaCopies = true;
  /** Resolves with the number of decode workers once they have loaded the decoder. */
  ready!: Promise<number>;

  /**
   * @param decodeWorkers how many decode workers to run; default one per core.
   * @param warmUpUrl a PBF (the bundled sample) whose blobs the query worker scans while idle,
   *   so that V8 has the decoder optimized before the first query (`workers/warm-up.ts`).
   */
  constructor(
    private readonly decodeWorkers?: number,
    private readonly warmUpUrl?: string,
  ) {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('../workers/query-worker.ts', import.meta.url), { type: 'module', name: 'query-worker' });
    let ready: (n: number) => void;
    this.ready = new Promise((r) => (ready = r));
    this.worker.onmessage = (e: MessageEvent<FromQueryWorker>) => {
      // With a pool size of our own, the default pool's `ready` is not the one awaited.
      if (e.data.type === 'ready' && this.decodeWorkers !== undefined && e.data.decodeWorkers !== this.decodeWorkers) return;
      this.onMessage(e.data, ready);
    };
    if (this.warmUpUrl !== undefined) this.post({ type: 'warm-up', url: this.warmUpUrl });
    if (this.decodeWorkers !== undefined) this.post({ type: 'pool', size: this.decodeWorkers });
  }

  /** Stops the query worker and its decode workers. */
  terminate(): void {
    this.abandon();
    this.worker.terminate();
  }

  private post(msg: ToQueryWorker): void {
    this.worker.postMessage(msg);
  }

  private onMessage(msg: FromQueryWorker, ready: (n: number) => void): void {
    if (msg.type === 'ready') return ready(msg.decodeWorkers);
    if (msg.type === 'trapped') {
      this.trapped = true;
      return;
    }
    if (msg.type === 'reply' || msg.type === 'call-error') {
      const pending = this.calls.get(msg.id);
      this.calls.delete(msg.id);
      if (msg.type === 'call-error') pending?.reject(new Error(msg.message));
      else pending?.settle(msg);
      return;
    }
    if (msg.type === 'batch') msg.events.forEach((event) => this.onRunEvent(event));
    else this.onRunEvent(msg);
  }

  private onRunEvent(msg: RunEvent): void {
    if (msg.run !== this.runId) return; // a late event of a replaced run
    const h = this.handlers;
    if (msg.type === 'file-info') h.onFileInfo?.(msg.info);
    else if (msg.type === 'progress') h.onProgress?.(msg.progress);
    else if (msg.type === 'changes') h.onChanges?.(mapChanges(msg.changes), msg.count, msg.mapSample);
    else if (msg.type === 'index-mismatch') h.onIndexMismatch?.(msg.message);
    else if (msg.type === 'outline') h.onOutline?.(msg.relation, msg.parts);
    else if (msg.type === 'places') h.onPlaces?.(msg.count);
    else if (msg.type === 'context') h.onContext?.(msg.features && contextFeatures(msg.features), msg.note, msg.drawing);
    else if (msg.type === 'area-copy') h.onAreaCopy?.(msg.state, msg.share, msg.bytes, msg.message);
    else if (msg.type === 'confirm') {
      const ask = h.onConfirm ?? (async () => true);
      void ask(msg.host, msg.bytes, msg.redirect).then((yes) => this.post({ type: 'confirmed', run: msg.run, yes }));
    } else if (msg.type === 'end') {
      this.lastWasmBytes = msg.wasmBytes;
      this.ending?.({ ...msg });
      this.ending = null;
      afterNextFrame(() => this.post({ type: 'drawn', run: msg.run }));
    }
  }

  /**
   * Runs `query` (null: only count elements) on `source`, cancelling the run before it.
   * `confirmAbove`: for a URL of another origin, ask (`onConfirm`) before reading more than
   * this many bytes, or a file of unknown size. Resolves when the run ends, however it ends.
   */
  run(source: SourceSpec, query: Query | null, handlers: RunHandlers, confirmAbove: number | null = null): Promise<RunResult> {
    this.abandon();
    if (this.lastWasmBytes > RESTART_ABOVE_BYTES || this.trapped) {
      this.worker.terminate();
      this.calls.forEach((p) => p.reject(new Error('the query worker restarted')));
      this.calls.clear();
      this.lastWasmBytes = 0;
      this.trapped = false;
      this.start();
    }
    const run = ++this.runId;
    this.handlers = handlers;
    this.post({ type: 'run', run, source, query, confirmAbove, context: this.drawContext, blobIndex: this.blobIndex, areaCopies: this.areaCopies });
    return new Promise((resolve) => (this.ending = resolve));
  }

  /**
   * Stops the current run. Its promise resolves with the worker's own end, `cancelled` with the
   * count of what was found before the stop (those matches stay), once the worker has sent them.
   */
  cancel(): void {
    if (this.ending) this.post({ type: 'cancel', run: this.runId });
  }

  /** Stops the current run for a newer one (or for good): its promise resolves now, `replaced`. */
  private abandon(): void {
    if (!this.ending) return;
    this.cancel();
    this.ending({ status: 'cancelled', count: 0, wasmBytes: this.lastWasmBytes, replaced: true });
    this.ending = null;
  }

  /** Sends a call and resolves with the part of its reply that `pick` takes. */
  private call<T>(request: CallRequest, pick: (reply: CallReply) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const settle = (reply: CallReply) => {
        const value = pick(reply);
        if (value === undefined) reject(new Error(`the query worker answered ${reply.call} to ${request.call}`));
        else resolve(value);
      };
      this.calls.set(request.id, { settle, reject });
      this.post({ type: 'call', ...request });
    });
  }

  /** `count` list rows from `start`, in the list's stable order. */
  rows(start: number, count: number): Promise<Match[]> {
    return this.call({ call: 'rows', id: ++this.callId, start, count }, (r) => (r.call === 'rows' ? r.result : undefined));
  }

  /** One match by type and id, or null: cut to a popup's bounds (`Match.cut`) unless `whole`. */
  get(osmType: Match['type'], id: number, whole = false): Promise<Match | null> {
    return this.call({ call: 'get', id: ++this.callId, osmType, osmId: id, whole }, (r) => (r.call === 'get' ? r.result : undefined));
  }

  /** Orders the list's rows by `column` (`type`, `id`, `name` or a tag key; null: by label). */
  order(column: string | null, descending: boolean): Promise<null> {
    return this.call({ call: 'order', id: ++this.callId, column: column ?? '', descending }, (r) => (r.call === 'order' ? r.result : undefined));
  }

  /** Keeps in the list's rows and the exports the matches holding `text` (type, id, a tag's key or value; empty: all): the rows left. */
  filter(text: string): Promise<number> {
    return this.call({ call: 'filter', id: ++this.callId, text }, (r) => (r.call === 'filter' ? r.result : undefined));
  }

  /** The position of match `type`/`id` in the list (its order and filter), or -1 when it is not a row of it. */
  rowOf(type: Match['type'], id: number): Promise<number> {
    return this.call({ call: 'row-of', id: ++this.callId, osmType: type, osmId: id }, (r) => (r.call === 'row-of' ? r.result : undefined));
  }

  /** Tag statistics of the answer, with the most frequent values of `key` (empty: none). */
  stats(key: string): Promise<TagStats> {
    return this.call({ call: 'stats', id: ++this.callId, key }, (r) => (r.call === 'stats' ? r.result : undefined));
  }

  /**
   * Why `query` would be refused before any byte is read (its syntax, as "syntax error at
   * column N: …", its area, its moments), or null: asked before a run clears the last answer.
   */
  async check(query: Query): Promise<string | null> {
    // A worker that trapped is replaced by the run; a check that does not come back soon leaves
    // the run to parse the query itself (its syntax error then ends it as before).
    if (this.trapped) return null;
    const asked = this.call({ call: 'check', id: ++this.callId, query }, (r) => (r.call === 'check' ? r.result : undefined));
    const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), CHECK_WAIT_MS));
    return Promise.race([asked.catch(() => null), late]);
  }

  /** The matches classed by their values of `key` (the map's "Colour by"). */
  styleClasses(key: string): Promise<StyleClasses> {
    return this.call({ call: 'style-classes', id: ++this.callId, key }, (r) => (r.call === 'style-classes' ? r.result : undefined));
  }

  /**
   * The answer (the list's rows, as filtered) as a file: a GeoJSON FeatureCollection (RFC 7946),
   * CSV (RFC 4180: type, id, point, WKT geometry, a column per tag key) or GeoParquet 1.1 (its
   * writer's module is loaded on the first such export).
   */
  exportFile(format: ExportFormat): Promise<Blob> {
    return this.call({ call: 'export', id: ++this.callId, format }, (r) => (r.call === 'export' ? r.result : undefined));
  }

  /** The program of `engine` answering `query` on `file` as pbf-explorer does, or why it cannot. */
  programFor(engine: Engine, query: Query, file: string): Promise<{ program: string } | { refused: string }> {
    return this.call({ call: 'elsewhere', id: ++this.callId, engine, query, file }, (r) => (r.call === 'elsewhere' ? r.result : undefined));
  }

  /** The blob index of the last run's file, as an `.idx` file (docs/blob-index.md), or null. */
  blobIndexFile(): Promise<Blob | null> {
    return this.call({ call: 'blob-index', id: ++this.callId }, (r) => (r.call === 'blob-index' ? r.result : undefined));
  }

  /** Bytes of the area copies kept (docs/optimize.md, "Area copies"); `remove`: removes them all first. */
  /** The last run's file's named boundaries and multipolygons whose name holds `text`, best first (at most 20). */
  places(text: string): Promise<Place[]> {
    return this.call({ call: 'places', id: ++this.callId, text }, (r) => (r.call === 'places' ? r.result : undefined));
  }

  areaCopiesBytes(remove = false): Promise<number> {
    return this.call({ call: 'area-copies', id: ++this.callId, remove }, (r) => (r.call === 'area-copies' ? r.result : undefined));
  }
}
