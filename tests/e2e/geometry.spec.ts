/**
 * Geometry through the page: the exported GeoJSON of a query holds every matched way with its
 * full geometry, the same vertices libosmium gives (tests/answers/geometry/, from
 * tests/answers/geometry/make-answers.py), as a LineString or, for a closed area, a Polygon; the CSV
 * export has one row per match with the same geometry as WKT; every node of each listed query's
 * answer is exported where libosmium puts it (tests/answers/positions/nodes.json, to 1e-7 degrees).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR, QUERIES, SCREENSHOT_DIR, querySearch } from './data';

/** Whether (x, y) lies inside the ring (even-odd rule). */
function inside(ring: [number, number][], x: number, y: number): boolean {
  let yes = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < xi + ((y - yi) / (yj - yi)) * (xj - xi)) yes = !yes;
  }
  return yes;
}

const GEOMETRY_DIR = resolve(import.meta.dirname, '../answers/geometry');
const NODE_POSITIONS: Record<string, [number, number]> = JSON.parse(readFileSync(resolve(import.meta.dirname, '../answers/positions/nodes.json'), 'utf8'));

for (const q of QUERIES.filter((q) => q.expected)) {
  test(`${q.file}: ${q.q}: each node is exported where libosmium puts it`, async ({ page }) => {
    await page.goto(`/${querySearch(q)}`);
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, q.file));
    await expect(page.getByTestId('status')).toHaveText('done');
    const download = page.waitForEvent('download');
    await page.getByTestId('export-geojson').click();
    const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
    const nodes = exported.features.filter((f: GeoJSON.Feature) => f.properties?.osm_type === 'node');
    expect(nodes.length).toBeGreaterThan(0);
    for (const f of nodes) {
      const [lon, lat] = (f.geometry as GeoJSON.Point).coordinates;
      const want = NODE_POSITIONS[`${q.file} node ${f.properties.osm_id}`];
      expect([Math.round(lat * 1e7), Math.round(lon * 1e7)], `node ${f.properties.osm_id}`).toEqual(want);
    }
  });
}

for (const [name, q, near] of [
  ['malta.highway-primary-1000m', 'highway=primary', '35.8989,14.5146'],
  ['malta.leisure-park-1000m', 'leisure=park', '35.8989,14.5146'],
  ['helsinki.leisure-park-1000m', 'leisure=park', '60.1699,24.9384'],
] as const) {
  test(`${name}: the export holds each way's full geometry`, async ({ page }) => {
    const reference: { file: string; ways: Record<string, [number, number][]>; multipolygons: Record<string, [number, number, number] | null> } = JSON.parse(
      readFileSync(join(GEOMETRY_DIR, `${name}.json`), 'utf8'),
    );
    await page.goto(`/?q=${encodeURIComponent(q)}&near=${near}&radius=1000`);
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, reference.file));
    await expect(page.getByTestId('status')).toHaveText('done');
    const download = page.waitForEvent('download');
    await page.getByTestId('export-geojson').click();
    const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
    const ways = exported.features.filter((f: GeoJSON.Feature) => f.properties?.osm_type === 'way');
    expect(ways.map((f: GeoJSON.Feature) => String(f.properties?.osm_id)).sort()).toEqual(Object.keys(reference.ways).sort());
    for (const f of ways as GeoJSON.Feature[]) {
      const want = reference.ways[String(f.properties?.osm_id)];
      const closed = want.length >= 4 && want[0][0] === want[want.length - 1][0] && want[0][1] === want[want.length - 1][1];
      const ring = f.geometry.type === 'Polygon' ? f.geometry.coordinates[0] : f.geometry.type === 'LineString' ? f.geometry.coordinates : [];
      expect(f.geometry.type, `way ${f.properties?.osm_id}`).toBe(closed && q.startsWith('leisure') ? 'Polygon' : 'LineString');
      expect(ring.length, `way ${f.properties?.osm_id}`).toBe(want.length);
      // [lon, lat] in degrees, to 1e-7.
      expect(ring.map(([lon, lat]) => [Math.round(lat * 1e7), Math.round(lon * 1e7)])).toEqual(want);
    }
    // Multipolygons: the outer and inner rings libosmium's area assembler builds.
    for (const [id, rings] of Object.entries(reference.multipolygons)) {
      const f = exported.features.find((x: GeoJSON.Feature) => x.properties?.osm_type === 'relation' && String(x.properties?.osm_id) === id);
      const polygons: GeoJSON.Position[][][] = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.type === 'MultiPolygon' ? f.geometry.coordinates : [];
      expect([polygons.length, polygons.reduce((n, p) => n + p.length - 1, 0)], `relation ${id}`).toEqual(rings ? rings.slice(0, 2) : [0, 0]);
    }
    // The CSV export: a header, then one row per match, with the same geometry as WKT.
    const csvDownload = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const csv = readFileSync(await (await csvDownload).path(), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toMatch(/^osm_type,osm_id,lat,lon,geometry,/);
    expect(csv.length - 1).toBe(exported.features.length);
    for (const f of ways as GeoJSON.Feature[]) {
      const row = csv.find((r) => r.startsWith(`way,${f.properties?.osm_id},`))!;
      const vertices = reference.ways[String(f.properties?.osm_id)].length;
      expect(row, `way ${f.properties?.osm_id}`).toContain(f.geometry.type === 'Polygon' ? '"POLYGON ((' : '"LINESTRING (');
      expect(row.split('"')[1].split(',').length).toBe(vertices);
      // Its point lies on the geometry: inside an area, on a vertex of a line.
      const [lat, lon] = row.split(',').slice(2, 4).map(Number);
      const ring = f.geometry.type === 'Polygon' ? f.geometry.coordinates[0] : f.geometry.type === 'LineString' ? f.geometry.coordinates : [];
      if (f.geometry.type === 'Polygon') expect(inside(ring as [number, number][], lon, lat), `way ${f.properties?.osm_id} point`).toBe(true);
      else expect(ring.some(([x, y]) => Math.abs(x - lon) < 1e-7 && Math.abs(y - lat) < 1e-7), `way ${f.properties?.osm_id} point`).toBe(true);
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-geometry.png`) });
  });
}

test('a whole-file answer exports whole: every match, written in pieces', async ({ page }) => {
  const want = JSON.parse(readFileSync(join(DATA_DIR, 'expected/with-relations/malta.building-all.json'), 'utf8'));
  await page.goto('/?q=building');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('map-sample')).toBeHidden(); // 21 081 matches are drawn whole
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  expect(exported.features.length).toBe(want.count_with_relations);
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const rows = readFileSync(await (await csvDownload).path(), 'utf8').trimEnd().split('\r\n');
  // Tag values may hold line breaks inside quotes: count the rows that start a record instead.
  expect(rows.filter((r) => /^(node|way|relation),\d+,/.test(r)).length).toBe(want.count_with_relations);
});
