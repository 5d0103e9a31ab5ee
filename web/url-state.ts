/**
 * The query as URL parameters, so every query is a link: `q` (the query language), `inside`
 * (`all`: wholly inside the area), `near`
 * (`lat,lon`), `radius` (metres), `bbox` (`minlon,minlat,maxlon,maxlat`), `in` (`relation/ID`: inside
 * that boundary or multipolygon of the file), `poly` (`lat lon lat lon …`: inside that polygon;
 * workers/common/polygon-text.ts), `src` (a PBF URL),
 * `file` and `size` (the name and size in bytes of the local file a link was made from),
 * `basemap` (a MapLibre style URL for an online basemap), `style` (a tag key the map colours
 * the matches by), `at` (ISO 8601: the moment a history
 * file is answered as of; UTC when it names no zone), `from` (ISO 8601: with `at`, what changed
 * from this moment to that one, on a history file).
 */
import { parsePoly, parseRelationRef } from '../workers/common/polygon-text';
import { parseBbox, parseLatLon, parseMoment, parseRadius } from '../workers/common/query-text';
import type { Query } from '../workers/types';

/** The query as the form holds it: text fields, checked only by {@link toQuery}. */
export interface QueryState {
  q: string;
  place: 'circle' | 'bbox' | 'relation' | 'polygon' | 'everywhere';
  near: string;
  radius: string;
  bbox: string;
  /** The relation that is the area: `relation/ID`. */
  relation: string;
  /** The polygon that is the area, as `poly=` writes it. */
  poly: string;
  /** `all`: a way or relation must lie wholly inside the area (`inside=all`). */
  inside: 'any' | 'all';
  /** History files: the moment to answer as of, `YYYY-MM-DDTHH:MM:SS` in UTC; empty for now. */
  at: string;
  /** History files: what changed from this moment to `at`, as `at` is written; empty for no change view. */
  from: string;
}

/** What the page starts with when the URL says nothing: cafés around Helsinki's centre. */
export const SAMPLE_URL = 'sample/helsinki.osm.pbf';
export const DEFAULT_STATE: QueryState = { q: 'amenity=cafe', place: 'circle', near: '60.1699,24.9384', radius: '1000', bbox: '', relation: '', poly: '', inside: 'any', at: '', from: '' };

/** Where the map looks: zoom and centre in degrees. */
export interface MapView {
  zoom: number;
  lat: number;
  lon: number;
}

/** What a link says beyond the query: the PBF's URL, or the name of the local file it was made from, and the map view. */
export interface LinkContext {
  src: string | null;
  file: string | null;
  /** The size in bytes of the local file the link was made from (with `file`). */
  size?: number | null;
  /** The replication timestamp its header gives (seconds since 1970, UTC; with `file`), when it gives one. */
  stamp?: number | null;
  map: MapView | null;
  /** The online basemap's style URL, if one was chosen. */
  basemap?: string | null;
  /** The tag key the map colours the matches by, if any. */
  style?: string | null;
}

/** A moment as the form's date control holds it: `YYYY-MM-DDTHH:MM:SS`, UTC. */
function formMoment(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** A moment of a link as the form's date control holds it; kept as typed when invalid (toQuery reports it). */
function momentField(text: string | null): string {
  if (!text) return '';
  try {
    return formMoment(parseMoment(text));
  } catch {
    return text;
  }
}

/** A moment of the form as a link writes it: ISO 8601 with its zone (`Z` when it names none). */
function linkMoment(text: string): string {
  return /^\d{4}-\d{2}-\d{2}T[\d:]+$/.test(text.trim()) ? `${text.trim()}Z` : text.trim();
}

function parseMapView(text: string | null): MapView | null {
  const [zoom, lat, lon] = (text ?? '').split('/').map(Number);
  return [zoom, lat, lon].every(Number.isFinite) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { zoom, lat, lon } : null;
}

/** Reads the query state and the link context from a URL's search parameters; absent ones take defaults. */
export function readUrl(search: string): { state: QueryState; hasQuery: boolean } & LinkContext {
  const p = new URLSearchParams(search);
  const bbox = p.get('bbox');
  const near = p.get('near');
  const relation = p.get('in');
  const poly = p.get('poly');
  const place: QueryState['place'] = relation ? 'relation' : poly ? 'polygon' : bbox ? 'bbox' : near ? 'circle' : p.has('q') ? 'everywhere' : DEFAULT_STATE.place;
  const state: QueryState = {
    q: p.get('q') ?? DEFAULT_STATE.q,
    place,
    near: near ?? DEFAULT_STATE.near,
    radius: p.get('radius') ?? DEFAULT_STATE.radius,
    bbox: bbox ?? '',
    relation: relation ?? '',
    poly: poly ?? '',
    inside: p.get('inside') === 'all' ? 'all' : 'any',
    at: momentField(p.get('at')),
    from: momentField(p.get('from')),
  };
  const size = Number(p.get('size') ?? NaN);
  const fileSize = p.get('file') && Number.isSafeInteger(size) && size >= 0 ? size : null;
  const stamp = Number(p.get('stamp') ?? NaN);
  const fileStamp = p.get('file') && Number.isSafeInteger(stamp) ? stamp : null;
  return { state, src: p.get('src'), file: p.get('file'), size: fileSize, stamp: fileStamp, map: parseMapView(p.get('map')), basemap: p.get('basemap'), style: p.get('style'), hasQuery: p.has('q') };
}

/** The search string (`?q=…`) for a query state and its link context. */
export function writeUrl(state: QueryState, link: LinkContext): string {
  const p = new URLSearchParams();
  if (link.src) p.set('src', link.src);
  else if (link.file) {
    p.set('file', link.file);
    if (typeof link.size === 'number') p.set('size', String(link.size));
    if (typeof link.stamp === 'number') p.set('stamp', String(link.stamp));
  }
  p.set('q', state.q.trim());
  if (state.place === 'circle') {
    p.set('near', state.near.replace(/\s+/g, ''));
    p.set('radius', state.radius);
  } else if (state.place === 'bbox') {
    p.set('bbox', state.bbox.replace(/\s+/g, ''));
  } else if (state.place === 'relation') {
    p.set('in', state.relation.trim());
  } else if (state.place === 'polygon') {
    p.set('poly', state.poly.trim().replace(/\s+/g, ' '));
  }
  if (state.inside === 'all' && state.place !== 'everywhere') p.set('inside', 'all');
  if (state.from.trim()) p.set('from', linkMoment(state.from));
  if (state.at.trim()) p.set('at', linkMoment(state.at));
  if (link.basemap) p.set('basemap', link.basemap);
  if (link.style) p.set('style', link.style);
  if (link.map) p.set('map', `${link.map.zoom.toFixed(2)}/${link.map.lat.toFixed(5)}/${link.map.lon.toFixed(5)}`);
  // URLSearchParams encodes '=', ',', '/', ';' and '!' although a query value may hold them; keep links readable.
  return `?${p.toString().replace(/%3D/g, '=').replace(/%2C/g, ',').replace(/%2F/g, '/').replace(/%3B/g, ';').replace(/%21/g, '!')}`;
}

/**
 * Checks a query state's area (and moment) and turns it into a {@link Query}. The query text itself is parsed
 * by the decoder before any byte is read (a syntax error ends the run with its column).
 * @throws Error with a message for the user when the text is blank or an area field or the
 *   moment is invalid.
 */
export function toQuery(state: QueryState): Query {
  const q = state.q.trim();
  if (!q) throw new Error('enter a query, like amenity=cafe or shop');
  const at = { ...(state.at.trim() ? { at: parseMoment(state.at) } : {}), ...(state.from.trim() ? { from: parseMoment(state.from) } : {}) };
  if (at.from !== undefined && at.from >= (at.at ?? Infinity)) throw new Error('what changed: the first moment (from) must come before the second (as of)');
  if (state.place === 'everywhere') return { q, area: 'everywhere', ...at };
  const inside = state.inside;
  if (state.place === 'bbox') return { q, area: parseBbox(state.bbox), inside, ...at };
  if (state.place === 'relation') return { q, area: { relation: parseRelationRef(state.relation) }, inside, ...at };
  if (state.place === 'polygon') return { q, area: { polygon: parsePoly(state.poly) }, inside, ...at };
  const { lat, lon } = parseLatLon(state.near);
  return { q, area: { circle: { lat, lon, radius: parseRadius(state.radius) } }, inside, ...at };
}
