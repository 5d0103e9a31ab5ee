/**
 * The protocol between the page and the query worker: one map from each request to its reply,
 * plus the events of a run. The page sends a source and a query; it gets back only what it
 * draws: map changes, counts, progress, and on demand list rows, one match, or the export.
 */
import type { ExportFormat, FileInfo, Match, Place, Progress, Query, StyleClasses, TagStats } from './types';
import type { Engine } from './common/elsewhere';

/** Where the file is: a local `File` (cloned to the worker, never read by the page) or a URL. */
export type SourceSpec = { kind: 'file'; file: File } | { kind: 'url'; url: string };

/** Which file a source is, for telling runs on the same file apart: a File's name, size and time, or the URL. */
export function sourceKey(spec: SourceSpec): string {
  return JSON.stringify(spec.kind === 'file' ? [spec.file.name, spec.file.size, spec.file.lastModified] : [spec.url]);
}

/** Requests that expect one reply, by name: arguments and result. */
export interface QueryCalls {
  /** `count` rows of the list from `start`, in its stable order (label, then type and id). */
  rows: { args: { start: number; count: number }; result: Match[] };
  /** One match, or null when it is not (or no longer) one. */
  get: { args: { osmType: Match['type']; osmId: number; whole: boolean }; result: Match | null };
  /** Orders the list's rows by a column (`type`, `id`, `name` or a tag key; empty: by label). */
  order: { args: { column: string; descending: boolean }; result: null };
  /** Keeps in the list's rows (and the exports) the matches holding `text` in their type, id, or a tag (empty: all); the rows left. */
  filter: { args: { text: string }; result: number };
  /** The position of a match in the list (its order and filter), or -1 when it is not a row of it. */
  'row-of': { args: { osmType: Match['type']; osmId: number }; result: number };
  /** Tag statistics of the answer, with the most frequent values of `key` (empty: none). */
  stats: { args: { key: string }; result: TagStats };
  /** The matches classed by their values of `key`, for colouring the map by it. */
  'style-classes': { args: { key: string }; result: StyleClasses };
  /** The answer as a GeoJSON FeatureCollection (RFC 7946), GeoJSON text sequence, CSV (RFC 4180, WKT geometry) or GeoParquet 1.1 file, built in the worker. */
  export: { args: { format: ExportFormat }; result: Blob };
  /** The blob index of the last run's file (docs/blob-index.md), or null when there is none. */
  'blob-index': { args: object; result: Blob | null };
  /** At most 20 of the last run's file's named boundaries and multipolygons whose name holds `text`, best first. */
  places: { args: { text: string }; result: Place[] };
  /** Why the query would be refused before any read (its syntax, its area, its moments), or null when it would run. */
  check: { args: { query: Query }; result: string | null };
  /** The program of another tool that answers `query` on `file` as pbf-explorer does, or why it cannot (`common/elsewhere.ts`). */
  elsewhere: { args: { engine: Engine; query: Query; file: string }; result: { program: string } | { refused: string } };
  /** Bytes of the area copies kept; `remove`: removes them all first. */
  'area-copies': { args: { remove: boolean }; result: number };
}

export type QueryCall = keyof QueryCalls;

/** A call as sent: its name, a call number, and its arguments. */
export type CallRequest = { [K in QueryCall]: { call: K; id: number } & QueryCalls[K]['args'] }[QueryCall];
/** A call's reply: its name, its call number, and its result (or an error message). */
export type CallReply = { [K in QueryCall]: { call: K; id: number; result: QueryCalls[K]['result'] } }[QueryCall];

/** Messages from the page to the query worker. */
export type ToQueryWorker =
  /** Use `size` decode workers from now on (default: one per core). */
  | { type: 'pool'; size: number }
  /** Warm the decoder up on the PBF at `url` while idle (`warm-up.ts`); `ready` waits for it. */
  | { type: 'warm-up'; url: string }
  /**
   * Run `query` on `source` (cancelling any run before it). `confirmAbove`: when set and the
   * source is a URL of another origin larger than this many bytes, ask the page first.
   * `context`: then read the basemap of the query's area. `areaCopies`: a local file's query
   * reads a kept area copy that answers it, and keeps one after its answer (docs/optimize.md).
   */
  | { type: 'run'; run: number; source: SourceSpec; query: Query | null; confirmAbove: number | null; context: boolean; blobIndex: boolean; areaCopies: boolean }
  | { type: 'cancel'; run: number }
  /** The page's answer to a `confirm` event. */
  | { type: 'confirmed'; run: number; yes: boolean }
  /**
   * The page has drawn the end of run `run` (the frame after its `end`): the work that follows
   * an answer (the basemap's read, the blob index's last step) starts then, not while the page
   * draws the answer.
   */
  | { type: 'drawn'; run: number }
  | ({ type: 'call' } & CallRequest);

/** How a run ended. */
export type RunEnd = { status: 'done' } | { status: 'cancelled' } | { status: 'error'; message: string };

/** The events of a run, from the query worker to the page. */
export type RunEvent =
  /** What is known about the file: sent once its header is read, again after a whole read. */
  | { type: 'file-info'; run: number; info: FileInfo }
  | { type: 'progress'; run: number; progress: Progress }
  /**
   * Map changes since the last ones, as numbers (transferred): `[r, r feature ids to remove, then
   * (feature id, lon, lat) per feature to add]`, to apply in that order; a feature id is
   * `osm id × 4 + type` (0 node, 1 way). Then the match count after them, and the map's sample:
   * it draws 1 match in `mapSample` (1 but for answers too large to draw whole).
   */
  | { type: 'changes'; run: number; changes: Float64Array; count: number; mapSample: number }
  /**
   * A blob did not match the blob index the run read by (`message` says which): what was found
   * is dropped and the file is read again whole. The page clears the map and the list.
   */
  | { type: 'index-mismatch'; run: number; message: string }
  /**
   * The outline of the relation that is the run's area (`parts`: GeoJSON MultiPolygon
   * coordinates), or null while it is being read, before the matches inside it.
   */
  | { type: 'outline'; run: number; relation: number; parts: number[][][][] | null }
  /** `count` named boundaries and multipolygons of the run's file are ready for the `places` call. */
  | { type: 'places'; run: number; count: number }
  /**
   * A large download from another origin, or (`redirect`) a redirect to an address the browser
   * shows only once followed, waits for the page's yes (`confirmed`).
   */
  | { type: 'confirm'; run: number; host: string; bytes: number; redirect: boolean }
  /** `blobIndex`: an index of the run's file is at hand, or is being finished (the `blob-index` call waits for it and gives it). */
  /**
   * `changes`: a change view's counts, `[created, modified, deleted]`; `bounds`: the matches'
   * positions' bbox `[w, s, e, n]` (degrees), absent with none placed.
   */
  | ({ type: 'end'; run: number; count: number; wasmBytes: number; blobIndex: boolean; changes?: number[]; bounds?: number[] } & RunEnd)
  /**
   * The basemap of the run's area, after its end: `features` as `readContext` encodes them
   * (null: none, and `note` says why); `drawing`: the read has only started (`note` says so).
   */
  | { type: 'context'; run: number; features: Int32Array | null; note: string | null; drawing: boolean }
  /**
   * The area copy made after the run's answer (docs/optimize.md, "Area copies"): `making` it
   * (`share` done, 0–1), `kept` (`bytes` with its index), or `failed` (`message` says why).
   */
  | { type: 'area-copy'; run: number; state: 'making' | 'kept' | 'failed'; share: number; bytes: number; message?: string };

/** Messages from the query worker to the page. */
export type FromQueryWorker =
  /** The decode workers have loaded the decoder, and a warm-up asked for has ended. */
  | { type: 'ready'; decodeWorkers: number }
  | RunEvent
  /** Run events sent as one message, for the page to handle in one task and draw in one frame. */
  | { type: 'batch'; events: RunEvent[] }
  | ({ type: 'reply' } & CallReply)
  | { type: 'call-error'; id: number; message: string }
  /** The worker's Wasm trapped: the page starts a fresh query worker before its next run. */
  | { type: 'trapped' };
