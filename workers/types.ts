/**
 * Shapes shared by the pipeline stages (source → framer → pool → worker → results).
 * Coordinates are degrees WGS84, distances metres, sizes and offsets bytes.
 */

/** One tag condition: `key=value`, or a bare `key` (any value) when `value` is null. */
export interface TagFilter {
  key: string;
  value: string | null;
}

/** Where matches must lie; the JSON form the Wasm decoder's `Query::from_json` reads. */
export type Area =
  | 'everywhere'
  | { circle: { lat: number; lon: number; radius: number } }
  | { bbox: { min_lon: number; min_lat: number; max_lon: number; max_lat: number } };

/** Tags (all required) plus an area. */
export interface Query {
  tags: TagFilter[];
  area: Area;
}

/** An OSM tag as [key, value]: untrusted text, never to be parsed as HTML. */
export type Tag = [string, string];

/** Element totals, as the decoder counts them. */
export interface Counts {
  nodes: number;
  ways: number;
  relations: number;
  tags: number;
  wayRefs: number;
  relationMembers: number;
}

/** What the OSMHeader says (degrees for the bbox: [minlon, minlat, maxlon, maxlat]). */
export interface HeaderInfo {
  bbox: [number, number, number, number] | null;
  required_features: string[];
  optional_features: string[];
  writing_program: string | null;
  replication_timestamp: number | null;
}

/** A node that carries the query's tags and lies in the area. */
export interface MatchedNode {
  id: number;
  lat: number;
  lon: number;
  tags: Tag[];
}

/** A way that carries the query's tags; placed later from its nodes' locations. */
export interface WayCandidate {
  id: number;
  tags: Tag[];
  refs: number[];
  /** [lat, lon] when the file has LocationsOnWays, else null. */
  position: [number, number] | null;
}

/** Locations (1e-7 degrees) of one blob's nodes in the area, ids ascending. */
export interface AreaNodes {
  ids: Float64Array;
  lats: Int32Array;
  lons: Int32Array;
}

/** What one OSMData blob gave. */
export interface BlobResult {
  counts: Counts;
  nodes: MatchedNode[];
  ways: WayCandidate[];
  areaNodes: AreaNodes;
}

/** A match as the map and list show it. */
export interface Match {
  type: 'node' | 'way';
  id: number;
  lat: number;
  lon: number;
  tags: Tag[];
}

/** Messages from the pool to a decode worker. */
export type WorkerRequest =
  /** `null` only counts elements (a full decode that keeps nothing). */
  | { type: 'query'; query: Query | null }
  | { type: 'blob'; job: number; kind: 'OSMHeader' | 'OSMData'; blob: ArrayBuffer };

/** Messages from a decode worker to the pool. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'header'; job: number; header: HeaderInfo }
  /** `wasmBytes`: the worker's Wasm linear memory size, which only grows. */
  | { type: 'data'; job: number; result: BlobResult; wasmBytes: number }
  /** `fatal`: the Wasm instance trapped and the worker is closing; the pool replaces it. */
  | { type: 'error'; job: number | null; message: string; fatal?: boolean };
