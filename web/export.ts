/** Export of the matches as a GeoJSON FeatureCollection (RFC 7946) file download. */
import type { FeatureCollection } from 'geojson';
import type { Match } from '../workers/types';

/** The matches as GeoJSON: Point Features with `osm_type`, `osm_id` and the tags as properties. */
export function toGeoJSON(matches: Match[]): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: matches.map((m) => ({
      type: 'Feature',
      properties: { ...Object.fromEntries(m.tags), osm_type: m.type, osm_id: m.id },
      geometry: { type: 'Point', coordinates: [m.lon, m.lat] },
    })),
  };
}

/** Starts a download of the matches as `<name>.geojson`. */
export function downloadGeoJSON(matches: Match[], name: string): void {
  const blob = new Blob([JSON.stringify(toGeoJSON(matches))], { type: 'application/geo+json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${name}.geojson`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
