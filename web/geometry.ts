/**
 * Shapes of query areas for drawing (GeoJSON polygons and bounds, in degrees WGS84), and the
 * size of GeoJSON geometries for sizing MapLibre updates.
 */
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import type { Area } from '../workers/types';

const EARTH_RADIUS_M = 6_371_008.8;

/** A polygon of `steps` points approximating a circle of `radius` metres on the sphere. */
export function circlePolygon(lat: number, lon: number, radius: number, steps = 96): Feature<Polygon> {
  const d = radius / EARTH_RADIUS_M;
  const p1 = (lat * Math.PI) / 180;
  const l1 = (lon * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const bearing = (2 * Math.PI * i) / steps;
    const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearing));
    const l2 = l1 + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
    ring.push([(l2 * 180) / Math.PI, (p2 * 180) / Math.PI]);
  }
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** A bbox `[minlon, minlat, maxlon, maxlat]` as a polygon. */
export function bboxPolygon([w, s, e, n]: number[]): Feature<Polygon> {
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] } };
}

/** Polygon parts (GeoJSON MultiPolygon coordinates) as a feature, each ring closed for drawing. */
export function partsPolygon(parts: number[][][][]): Feature<MultiPolygon> {
  const closed = (ring: number[][]) => (ring.length > 0 && (ring[0][0] !== ring[ring.length - 1][0] || ring[0][1] !== ring[ring.length - 1][1]) ? [...ring, ring[0]] : ring);
  return { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: parts.map((rings) => rings.map(closed)) } };
}

/** The query area as a polygon, or null for the whole file and for a relation (its outline comes with the answer). */
export function areaPolygon(area: Area): Feature<Polygon | MultiPolygon> | null {
  if (area === 'everywhere' || 'relation' in area) return null;
  if ('circle' in area) return circlePolygon(area.circle.lat, area.circle.lon, area.circle.radius);
  if ('polygon' in area) return partsPolygon(area.polygon);
  const b = area.bbox;
  return bboxPolygon([b.min_lon, b.min_lat, b.max_lon, b.max_lat]);
}

/** `[minlon, minlat, maxlon, maxlat]` around a polygon's outer rings. */
export function polygonBounds(polygon: Feature<Polygon | MultiPolygon>): [number, number, number, number] {
  const g = polygon.geometry;
  const outers = g.type === 'Polygon' ? [g.coordinates[0]] : g.coordinates.map((rings) => rings[0]);
  const points = outers.flat();
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of points) [w, s, e, n] = [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)];
  return [w, s, e, n];
}

/** How many positions (RFC 7946 §3.1.1) a geometry holds: 1 for a Point, every vertex of its lines and rings otherwise. */
/** Whether two bboxes `[w, s, e, n]` (degrees) meet (touching counts). */
export function bboxesMeet(a: number[], b: number[]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function positionCount(geometry: Geometry): number {
  switch (geometry.type) {
    case 'Point':
      return 1;
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates.length;
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.reduce((n, line) => n + line.length, 0);
    case 'MultiPolygon':
      return geometry.coordinates.reduce((n, polygon) => polygon.reduce((m, ring) => m + ring.length, n), 0);
    case 'GeometryCollection':
      return geometry.geometries.reduce((n, g) => n + positionCount(g), 0);
  }
}

/**
 * How many of `features`, from index `start`, weigh at most `budget` together, a feature
 * weighing 2 + its positions (a point 3); at least one when one is left, however heavy.
 */
export function featuresWithin(features: Feature[], budget: number, start = 0): number {
  let weight = 0;
  for (let i = start; i < features.length; i++) {
    weight += 2 + positionCount(features[i].geometry);
    if (weight > budget) return Math.max(i - start, 1);
  }
  return Math.max(features.length - start, 0);
}
