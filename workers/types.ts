/**
 * Shapes shared by the page and the workers (source → framer → pool → decode workers → assembly).
 * Coordinates are degrees WGS84, distances metres, sizes and offsets bytes.
 */

/** Where matches must lie; the JSON form the Wasm decoder's `Query::from_json` reads. */
export type Area =
  | 'everywhere'
  | { circle: { lat: number; lon: number; radius: number } }
  | { bbox: { min_lon: number; min_lat: number; max_lon: number; max_lat: number } }
  /** Inside or on a polygon: GeoJSON MultiPolygon coordinates, `[lon, lat]` (workers/common/polygon-text.ts). */
  | { polygon: number[][][][] }
  /** Inside the multipolygon of relation `relation` of the file (a boundary or multipolygon), read first. */
  | { relation: number };

/**
 * A query: its text in the query language (README "Query language", parsed by the Wasm
 * decoder's `Expr::parse`), an area, and whether a way or relation must lie wholly inside it
 * (`inside: 'all'`; default `'any'`, one node suffices). On a history file, the versions
 * current at `at` (README "History files").
 */
export interface Query {
  q: string;
  area: Area;
  inside?: 'any' | 'all';
  /** History files: the moment to answer as of, seconds since the Unix epoch (absent: now). */
  at?: number;
  /** History files: what changed from this moment (seconds since the Unix epoch) to `at`: a change view. */
  from?: number;
  /** Set by the reader once the header says the file is a history file (`HistoricalInformation`). */
  history?: boolean;
  /** Set by the reader on a full read that builds the file's blob index: scans note what it needs. */
  index?: boolean;
  /** Scans only count elements (a read for the file's facts or blob index alone). */
  count_only?: boolean;
  /** False: scans skip the file's newest timestamp (a reader that shows no file facts; default true). */
  newest_timestamp?: boolean;
}

/** Tag statistics of an answer (`QueryAssembler.tagStats`). */
/** The matches classed by their values of one key (the crate's `StyleClasses`). */
export interface StyleClasses {
  /** The most frequent values with their counts, most frequent first: class `i` is `values[i]`. */
  values: [string, number][];
  /** Matches with another value (class `values.length`), and without the key (class `values.length + 1`). */
  other: number;
  none: number;
  /** For each match the map draws: its feature id, then its class. */
  features: number[];
}

export interface TagStats {
  /** Matches by type: [nodes, ways, relations]. */
  types: [number, number, number];
  /** The most frequent keys with how many matches carry them. */
  keys: [string, number][];
  /** The most frequent values of the key asked about. */
  values: [string, number][];
  /** Keys, and values of the key asked about, over 200 bytes: counted here, not listed (the crate's `STATS_TEXT_BYTES`). */
  long_keys: number;
  long_values: number;
  /** The table's tag columns: the query's keys, then the most frequent others. */
  columns: string[];
}

/** An OSM tag as [key, value]: untrusted text, never to be parsed as HTML. */
export type Tag = [string, string];

/**
 * An export's format: GeoJSON (RFC 7946), GeoJSON text sequences (RFC 8142), CSV (RFC 4180) or
 * GeoParquet 1.1 (binary; its writer is a Wasm module of its own, loaded when first used).
 */
export type ExportFormat = 'geojson' | 'geojsonseq' | 'csv' | 'geoparquet';

/** Element totals, as the decoder counts them. */
export interface Counts {
  nodes: number;
  ways: number;
  relations: number;
  tags: number;
  wayRefs: number;
  relationMembers: number;
}

/**
 * What the OSMHeader says (spec: "Definition of the OSMHeader fileblock"): the bbox in degrees
 * `[minlon, minlat, maxlon, maxlat]`, the replication timestamp in seconds since the Unix epoch.
 * Strings are untrusted text.
 */
export interface HeaderInfo {
  bbox: [number, number, number, number] | null;
  required_features: string[];
  optional_features: string[];
  writing_program: string | null;
  source: string | null;
  replication_timestamp: number | null;
  replication_sequence_number: number | null;
  replication_base_url: string | null;
}

/** Whether the header is a history file's (it requires `HistoricalInformation`). */
export function isHistory(header: HeaderInfo): boolean {
  return header.required_features.includes('HistoricalInformation');
}

/** What a whole read learnt about a file (`QueryAssembler.fileFacts`). */
export interface FileFacts {
  /** OSMData blobs by compression name (`zlib`, `zstd`, `lz4`, `raw`). */
  blobs: Record<string, number>;
  counts: { nodes: number; ways: number; relations: number; tags: number; way_refs: number; relation_members: number };
  /** Smallest and largest id of each type, null when the file has none. */
  id_ranges: { node: [number, number] | null; way: [number, number] | null; relation: [number, number] | null };
  /** Seconds since the Unix epoch, null when the file carries no metadata. */
  newest_timestamp: number | null;
}

/**
 * What the page shows about the open file, as `osmium fileinfo` would: its name (file name or
 * URL), size in bytes (NaN when a server did not say), its header once read, and the facts of
 * the last whole read (null before one).
 */
export interface FileInfo {
  name: string;
  size: number;
  header: HeaderInfo | null;
  facts: FileFacts | null;
}

/** A match as the map and list show it (degrees WGS84). */
export interface Match {
  type: 'node' | 'way' | 'relation';
  id: number;
  /** Null for a match with no location: with no area, tags alone decide, and none of its nodes (a relation: its members' nodes) is in the file. */
  lat: number | null;
  lon: number | null;
  tags: Tag[];
  /** A relation's members: [type (0 node, 1 way, 2 relation), id, role]. */
  members?: [number, number, string][];
  /** Why its geometry could not be built, if so: a broken multipolygon (drawn as its ways), or no node in the file (no geometry). */
  problem?: string;
  /** The version shown, when the file carries metadata. */
  meta?: Meta;
  /** Metres from the area's centre (haversine), when the area is a circle. */
  distance?: number;
  /** In a change view: what happened to it between the two moments. */
  change?: 'created' | 'modified' | 'deleted';
  /**
   * Set when the match is shown cut (a list row, a popup: the crate's `trim.rs`): tags and
   * members left out, keys and values shortened to end in `…`. Never set in exports.
   */
  cut?: { tags: number; texts: number; members: number };
}

/**
 * One element version's metadata (spec: Info / DenseInfo): `timestamp` in seconds since the
 * Unix epoch; `user` is untrusted text; `visible` false only for a deletion in a history file.
 */
export interface Meta {
  version: number;
  timestamp: number;
  changeset: number;
  uid: number;
  user: string;
  visible: boolean;
}

/** Where a run is; sizes in bytes, times in milliseconds. */
export interface Progress {
  bytesRead: number;
  /** NaN when a server without Range support sent no length. */
  totalBytes: number;
  /** HTTP only: requests under way, retries so far, and whether the server honours Range. */
  requestsInFlight?: number;
  retries?: number;
  rangeSupported?: boolean;
  /** HTTP only: how long (ms) the longest request under way has waited for its reply or next bytes. */
  waitingMs?: number;
  blobsDecoded: number;
  /** Nodes + ways + relations decoded so far. */
  elements: number;
  /** Blobs read a second time to place ways (see README "Query semantics"). */
  blobsReread: number;
  elapsedMs: number;
  /**
   * The blob index: `used` (only the blobs it names are read), `building` (a full read notes
   * it), `kept` (after the answer: the index the read noted is made and kept for the next query),
   * `mismatch` (a blob read by the index did not match it: the file is read again whole, building
   * a new one).
   */
  blobIndex?: 'used' | 'building' | 'kept' | 'mismatch';
  /** The read is of the area copy kept for this file and area (docs/optimize.md), of these bytes, not of the file. */
  areaCopy?: number;
}

/** A named boundary or multipolygon relation of the file (the crate's `Place`). */
export interface Place {
  /** The relation's id, or the node's (`kind` `place`). */
  id: number;
  name: string;
  /** A relation's `type` tag, `boundary` or `multipolygon`; `place` for a node with `place=*`. */
  kind: string;
  /** What it is as a tag: `boundary=administrative`, `leisure=park`, `place=town`; may be empty. */
  what: string;
  admin_level: string | null;
  /** How many of its members are ways (0 for a node). */
  ways: number;
  /** A node's location, `[lat, lon]` in degrees WGS84; null for a relation. */
  at: [number, number] | null;
}
