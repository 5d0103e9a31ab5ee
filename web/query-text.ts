/** Query text forms: areas as URL values, and a query's one-line description. */
import type { Area, Query } from '../workers/types';

/**
 * Parses `lat,lon` in degrees WGS84.
 * @throws Error when either number is missing or out of range.
 */
export function parseLatLon(text: string): { lat: number; lon: number } {
  const parts = text.split(',').map((s) => Number(s.trim()));
  const [lat, lon] = parts;
  if (parts.length !== 2 || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new Error(`"${text}" is not lat,lon in degrees (like 60.1699,24.9384)`);
  }
  return { lat, lon };
}

/**
 * Parses a radius in metres.
 * @throws Error unless it is a positive finite number.
 */
export function parseRadius(text: string): number {
  const r = Number(text);
  if (!Number.isFinite(r) || r <= 0) throw new Error(`radius "${text}" must be a positive number of metres`);
  return r;
}

/**
 * Parses a bbox `minlon,minlat,maxlon,maxlat` in degrees WGS84.
 * @throws Error for a malformed or inverted bbox.
 */
export function parseBbox(text: string): Area {
  const v = text.split(',').map((s) => Number(s.trim()));
  const [minLon, minLat, maxLon, maxLat] = v;
  const ok = v.length === 4 && v.every(Number.isFinite) && minLon <= maxLon && minLat <= maxLat
    && Math.abs(minLat) <= 90 && Math.abs(maxLat) <= 90 && Math.abs(minLon) <= 180 && Math.abs(maxLon) <= 180;
  if (!ok) throw new Error(`"${text}" is not a bbox minlon,minlat,maxlon,maxlat in degrees`);
  return { bbox: { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat } };
}

/** A human summary of a query, e.g. `amenity=cafe within 1000 m of 60.1699,24.9384`. */
export function describeQuery(q: Query): string {
  const tags = q.q.trim() + (q.inside === 'all' ? ' (wholly inside)' : '');
  if (q.area === 'everywhere') return `${tags} in the whole file`;
  if ('circle' in q.area) return `${tags} within ${q.area.circle.radius} m of ${q.area.circle.lat},${q.area.circle.lon}`;
  const b = q.area.bbox;
  return `${tags} in bbox ${b.min_lon},${b.min_lat},${b.max_lon},${b.max_lat}`;
}
