/**
 * The query worker's numeric messages read back as GeoJSON: map changes and basemap features
 * (encodings: `Assembler::drain_changes` and `basemap::context_ways` in the crate). No DOM: the
 * page draws them, tests read them.
 */

const TYPES = ['node', 'way', 'relation'] as const;
/**
 * A match's properties on the map: its type only, one shared object per type (its id is the
 * feature id's, {@link matchOf}). For 400 000 matches a fresh `{type, id}` each cost the page
 * ~3× the time to build and ~25 % more to hand to MapLibre's worker, which clones shared
 * objects once per message.
 */
const PROPERTIES = TYPES.map((type) => Object.freeze({ type }));
/** A change view's classes by their number on the wire (`Change::number` in the crate; 0: none). */
export const CHANGES = ['created', 'modified', 'deleted'] as const;
/** The properties of a match of a change view, by class number, then type: `{type, change}`. */
const CHANGE_PROPERTIES = [PROPERTIES, ...CHANGES.map((change) => TYPES.map((type) => Object.freeze({ type, change })))];

/** The type number (0 node, 1 way, 2 relation) of a map feature id, `osm id × 4 + type`. */
const typeNumber = (featureId: number) => ((featureId % 4) + 4) % 4; // ids may be negative (not yet uploaded)

/** The match a map feature id (`osm id × 4 + type`) stands for. */
export function matchOf(featureId: number): { type: (typeof TYPES)[number]; id: number } {
  const type = typeNumber(featureId);
  return { type: TYPES[type], id: (featureId - type) / 4 };
}

/** The map feature id of match `type`/`id`: `osm id × 4 + type` (the inverse of {@link matchOf}). */
export function featureIdOf(type: (typeof TYPES)[number], id: number): number {
  return id * 4 + TYPES.indexOf(type);
}

/**
 * The query worker's numeric map changes (see `QueryAssembler.drainChanges` and the Rust
 * `Shape::encode`) as GeoJSON Features (RFC 7946) with `id` the feature id and properties
 * `{type}` (see {@link matchOf}), and `change` in a change view (the shape's kind number then
 * carries 8 × the class number, {@link CHANGES}).
 */
export function mapChanges(numbers: Float64Array): { remove: number[]; add: GeoJSON.Feature[] } {
  const removing = numbers[0];
  const remove = Array.from(numbers.subarray(1, 1 + removing));
  const add: GeoJSON.Feature[] = [];
  let i = 1 + removing;
  const position = (): [number, number] => [numbers[i++], numbers[i++]];
  const list = <T>(item: () => T): T[] => Array.from({ length: numbers[i++] }, item);
  const line = () => list(position);
  while (i < numbers.length) {
    const fid = numbers[i++];
    const code = numbers[i++];
    const kind = code % 8;
    const geometry: GeoJSON.Geometry =
      kind === 0 ? { type: 'Point', coordinates: [numbers[i++], numbers[i++]] }
      : kind === 1 ? { type: 'LineString', coordinates: line() }
      : kind === 2 ? { type: 'Polygon', coordinates: list(line) }
      : kind === 3 ? { type: 'MultiLineString', coordinates: list(line) }
      : { type: 'MultiPolygon', coordinates: list(() => list(line)) };
    add.push({ type: 'Feature', id: fid, properties: CHANGE_PROPERTIES[(code - kind) / 8][typeNumber(fid)], geometry });
  }
  return { remove, add };
}

/** Basemap classes by number, as `wasm/src/basemap.rs` (`ContextClass`) numbers them. */
export const CONTEXT_CLASSES = ['major-road', 'minor-road', 'path', 'railway', 'water', 'waterway', 'building', 'green', 'landuse'] as const;

/**
 * The basemap as the query worker sends it (i32s `class, kind, n, then n × (lon_e7, lat_e7)`
 * per feature; kind 0 a line, 1 a closed ring) as GeoJSON Features with `{class}`.
 */
export function contextFeatures(numbers: Int32Array): GeoJSON.FeatureCollection {
  const features: GeoJSON.Feature[] = [];
  for (let i = 0; i < numbers.length; ) {
    const [klass, kind, n] = [numbers[i], numbers[i + 1], numbers[i + 2]];
    i += 3;
    const line = Array.from({ length: n }, (_, v) => [numbers[i + 2 * v] * 1e-7, numbers[i + 2 * v + 1] * 1e-7]);
    i += 2 * n;
    const geometry: GeoJSON.Geometry = kind === 1 ? { type: 'Polygon', coordinates: [line] } : { type: 'LineString', coordinates: line };
    features.push({ type: 'Feature', properties: { class: CONTEXT_CLASSES[klass] }, geometry });
  }
  return { type: 'FeatureCollection', features };
}
