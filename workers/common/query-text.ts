/**
 * Query text forms, for the page and the command line alike: areas and moments as typed in a
 * field, a URL or an argument, and a query's one-line description.
 */
import type { Area, Query } from '../types';

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

/** A human summary of a query, e.g. `amenity=cafe within 1000 m of 60.1699,24.9384` (a change view: `…, changed from T1 to T2`). */
export function describeQuery(q: Query): string {
  const moment = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const what = describeArea(q);
  return q.from === undefined ? what : `${what}, changed from ${moment(q.from)} to ${q.at === undefined ? 'now' : moment(q.at)}`;
}

/** The query's tags and area in words (see {@link describeQuery}). */
function describeArea(q: Query): string {
  const tags = q.q.trim() + (q.inside === 'all' ? ' (wholly inside)' : '');
  if (q.area === 'everywhere') return `${tags} in the whole file`;
  if ('circle' in q.area) return `${tags} within ${q.area.circle.radius} m of ${q.area.circle.lat},${q.area.circle.lon}`;
  if ('relation' in q.area) return `${tags} inside relation ${q.area.relation}`;
  if ('polygon' in q.area) {
    const points = q.area.polygon.flat().reduce((n, ring) => n + ring.length, 0);
    return `${tags} inside a polygon of ${points} points`;
  }
  const b = q.area.bbox;
  return `${tags} in bbox ${b.min_lon},${b.min_lat},${b.max_lon},${b.max_lat}`;
}

/**
 * Seconds since the Unix epoch of an ISO 8601 date or date-time (UTC when it names no zone).
 * @throws Error for the user when it is not one.
 */
export function parseMoment(text: string): number {
  const t = text.trim();
  const utc = /T[\d:.]+$/.test(t) ? `${t}Z` : t; // a bare date-time would be local time to Date.parse
  const ms = /^\d{4}-\d{2}-\d{2}/.test(t) ? Date.parse(utc) : NaN;
  if (!Number.isFinite(ms)) throw new Error(`"${text}" is not a moment: write it as ISO 8601, e.g. 2021-07-01T00:00:00Z`);
  return Math.floor(ms / 1000);
}
