/**
 * A Vite plugin: `import landUrl from 'world-atlas/land-50m.json?geojson-url'` gives the URL of
 * Natural Earth's 1:50m land as GeoJSON, converted from world-atlas's TopoJSON when the app is
 * built (coordinates to 1e-3 degrees, finer than the 1:50m data). The map hands MapLibre this URL,
 * so its own worker fetches and parses the land: the page's thread neither converts it nor
 * copies it to that worker (which was 60–120 ms of one start-up task, `docs/decisions.md`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import type { Plugin } from 'vite';

const SUFFIX = '?geojson-url';

/** Rounds every number of a GeoJSON coordinates array to 1e-3. */
function rounded(coordinates: unknown): unknown {
  return Array.isArray(coordinates) ? coordinates.map(rounded) : Math.round((coordinates as number) * 1000) / 1000;
}

/** The GeoJSON text of the TopoJSON file `path`'s object `land`. */
function landGeoJson(path: string): string {
  const topology = JSON.parse(readFileSync(path, 'utf8')) as Topology;
  const land = feature(topology, topology.objects.land) as unknown as { features: { geometry: { coordinates: unknown } }[] };
  for (const f of land.features) f.geometry.coordinates = rounded(f.geometry.coordinates);
  return JSON.stringify(land);
}

export function landAsset(): Plugin {
  const require = createRequire(import.meta.url);
  let serving = false;
  return {
    name: 'land-geojson-asset',
    enforce: 'pre',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId(id) {
      return id.endsWith(SUFFIX) ? `\0${require.resolve(id.slice(0, -SUFFIX.length))}${SUFFIX}` : null;
    },
    load(id) {
      if (!id.startsWith('\0') || !id.endsWith(SUFFIX)) return null;
      const source = landGeoJson(id.slice(1, -SUFFIX.length));
      // The dev server has no emitted assets: the land comes as a data URL there.
      if (serving) return `export default ${JSON.stringify(`data:application/geo+json;base64,${Buffer.from(source).toString('base64')}`)};`;
      const ref = this.emitFile({ type: 'asset', name: 'land-50m.geojson', source });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}
