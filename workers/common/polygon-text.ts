/**
 * Polygon areas as people write them, for the page and the command line alike: the URL's
 * `poly=` (overpass's `poly:"lat lon lat lon …"`, with a compact form for holes and several
 * parts), a GeoJSON Polygon or MultiPolygon (RFC 7946), and an osmium/Osmosis `.poly` file
 * (OSM wiki "Osmosis/Polygon Filter File Format"). Each becomes GeoJSON MultiPolygon
 * coordinates: parts of rings of `[lon, lat]` in degrees WGS84, each part's first ring its
 * outer one, the others its holes — the decoder's `Area::Polygon`.
 */

/** GeoJSON MultiPolygon coordinates: parts, rings, `[lon, lat]` degrees. */
export type PolygonParts = number[][][][];

/** The most vertices a polygon area may have (a country's outline has fewer). */
export const MAX_POLYGON_VERTICES = 1_000_000;

/** Checks parts: each ring with at least three points, every point a lat/lon in range. */
function checked(parts: PolygonParts, what: string): PolygonParts {
  if (parts.length === 0) throw new Error(`${what}: no polygon in it`);
  let vertices = 0;
  for (const rings of parts) {
    for (const ring of rings) {
      const distinct = new Set(ring.map(([lon, lat]) => `${lon} ${lat}`)).size;
      if (distinct < 3) throw new Error(`${what}: a ring needs three points at least, this one has ${distinct}`);
      for (const point of ring) {
        const [lon, lat] = point;
        if (point.length < 2 || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
          throw new Error(`${what}: "${point.join(' ')}" is not a longitude and latitude in degrees`);
        }
      }
      vertices += ring.length;
    }
  }
  if (vertices > MAX_POLYGON_VERTICES) throw new Error(`${what}: ${vertices} points, over the ${MAX_POLYGON_VERTICES} a polygon area may have`);
  return parts;
}

/**
 * Parses the URL's `poly=`: `lat lon lat lon …` (overpass's form: one ring, latitude first),
 * several rings separated by `;`, a ring starting with `!` being a hole of the part before it
 * (as in a `.poly` file). Commas may stand for spaces.
 * @throws Error for the user for an odd count of numbers, a number out of range, a ring of fewer
 *   than three points, or a hole before any outer ring.
 */
export function parsePoly(text: string): PolygonParts {
  const parts: PolygonParts = [];
  for (const piece of text.split(';')) {
    const trimmed = piece.trim();
    if (!trimmed) continue;
    const hole = trimmed.startsWith('!');
    const numbers = trimmed.replace(/^!/, '').split(/[\s,]+/).filter(Boolean).map(Number);
    if (numbers.length % 2 !== 0 || numbers.some((n) => !Number.isFinite(n))) {
      throw new Error(`poly: "${trimmed.slice(0, 40)}" is not a list of lat lon pairs in degrees`);
    }
    const ring: number[][] = [];
    for (let i = 0; i < numbers.length; i += 2) ring.push([numbers[i + 1], numbers[i]]);
    if (hole) {
      if (parts.length === 0) throw new Error('poly: a hole ("!…") comes after the outer ring it is in');
      parts[parts.length - 1].push(ring);
    } else {
      parts.push([ring]);
    }
  }
  return checked(parts, 'poly');
}

/** A degree value written with at most 7 decimals (1e-7 degrees, OSM's precision). */
const degrees = (v: number) => String(Number(v.toFixed(7)));

/** Writes parts in the `poly=` form {@link parsePoly} reads (rings not repeating their first point). */
export function formatPoly(parts: PolygonParts): string {
  const ring = (r: number[][]) => {
    const open = r.length > 1 && r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1] ? r.slice(0, -1) : r;
    return open.map(([lon, lat]) => `${degrees(lat)} ${degrees(lon)}`).join(' ');
  };
  return parts.map((rings) => rings.map((r, i) => (i === 0 ? '' : '!') + ring(r)).join(';')).join(';');
}

/** Pushes `items` on `stack` last first, so that they pop in order (a loop: a spread of a long list overflows the stack). */
function pushReversed(stack: unknown[], items: unknown[]): void {
  for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
}

/**
 * Reads a GeoJSON text: a Polygon or MultiPolygon geometry, a Feature of one, or a
 * FeatureCollection (its polygons together; other geometries are left out).
 * @throws Error for the user when it is not JSON, or holds no polygon.
 */
export function parseGeoJsonPolygon(text: string): PolygonParts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('GeoJSON: the file is not JSON');
  }
  const parts: PolygonParts = [];
  // Depth first, in the document's order, with a stack of its own: JSON nests deeper than the
  // call stack goes.
  const pending: unknown[] = [json];
  while (pending.length > 0) {
    const g = pending.pop();
    if (!g || typeof g !== 'object') continue;
    const o = g as { type?: unknown; coordinates?: unknown; geometry?: unknown; features?: unknown; geometries?: unknown };
    if (o.type === 'Polygon' && Array.isArray(o.coordinates)) parts.push(o.coordinates as number[][][]);
    else if (o.type === 'MultiPolygon' && Array.isArray(o.coordinates)) for (const part of o.coordinates) parts.push(part);
    else if (o.type === 'Feature') pending.push(o.geometry);
    else if (o.type === 'FeatureCollection' && Array.isArray(o.features)) pushReversed(pending, o.features);
    else if (o.type === 'GeometryCollection' && Array.isArray(o.geometries)) pushReversed(pending, o.geometries);
  }
  if (parts.some((rings) => !Array.isArray(rings) || rings.some((r) => !Array.isArray(r) || r.some((p) => !Array.isArray(p))))) {
    throw new Error('GeoJSON: a polygon\'s coordinates are not lists of [lon, lat]');
  }
  return checked(parts, 'GeoJSON');
}

/**
 * Reads an osmium/Osmosis `.poly` file: a name line, then sections (a name line, `lon lat`
 * lines, `END`), a section whose name starts with `!` being a hole of the section before it;
 * `END` after the last section.
 * @throws Error for the user, naming the line, when a section is not closed or a line is not
 *   two numbers.
 */
export function parsePolyFile(text: string): PolygonParts {
  const lines = text.split(/\r?\n/);
  const parts: PolygonParts = [];
  let ring: number[][] | null = null;
  let hole = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (ring === null) {
      if (line === 'END' || line === '') {
        if (line === 'END') return checked(parts, '.poly');
        continue;
      }
      hole = line.startsWith('!');
      if (hole && parts.length === 0) throw new Error(`.poly line ${i + 1}: a hole comes after the outer ring it is in`);
      ring = [];
      continue;
    }
    if (line === 'END') {
      if (hole) parts[parts.length - 1].push(ring);
      else parts.push([ring]);
      ring = null;
      continue;
    }
    const numbers = line.split(/\s+/).map(Number);
    if (numbers.length !== 2 || numbers.some((n) => !Number.isFinite(n))) throw new Error(`.poly line ${i + 1}: "${line.slice(0, 40)}" is not a longitude and latitude`);
    ring.push(numbers);
  }
  throw new Error('.poly: the file ends before its last END');
}

/** Reads a polygon file by its contents: GeoJSON when it starts with `{`, else a `.poly` file. */
export function parsePolygonFile(text: string): PolygonParts {
  return text.trimStart().startsWith('{') ? parseGeoJsonPolygon(text) : parsePolyFile(text);
}

/** Parses `relation/ID` (the URL's `in=`) into the relation's id. */
export function parseRelationRef(text: string): number {
  const m = /^\s*(?:relation\/|r)?(\d{1,18})\s*$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a relation of the file, like relation/7510580`);
  return Number(m[1]);
}
