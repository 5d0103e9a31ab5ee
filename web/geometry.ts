/** Shapes of query areas for drawing: GeoJSON polygons and bounds, in degrees WGS84. */
import type { Feature, Polygon } from 'geojson';
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

/** The query area as a polygon, or null for the whole file. */
export function areaPolygon(area: Area): Feature<Polygon> | null {
  if (area === 'everywhere') return null;
  if ('circle' in area) return circlePolygon(area.circle.lat, area.circle.lon, area.circle.radius);
  const b = area.bbox;
  return bboxPolygon([b.min_lon, b.min_lat, b.max_lon, b.max_lat]);
}

/** `[minlon, minlat, maxlon, maxlat]` around a polygon's outer ring. */
export function polygonBounds(polygon: Feature<Polygon>): [number, number, number, number] {
  const ring = polygon.geometry.coordinates[0];
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}
