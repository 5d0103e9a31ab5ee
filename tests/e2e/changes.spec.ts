/**
 * What changed between two moments, through the page: the history file libosmium wrote
 * (scripts/make-osmium-fixtures.sh: Malta with later versions of Valletta's cafés applied by
 * `osmium apply-changes --with-history`) read with `from=` and `at=`. Its change view equals the
 * difference of the same query's answers on `osmium time-filter`'s snapshots of the two moments
 * (each read by the page too), and a person sees it in three colours with a legend and counts,
 * in the table's change column and in the export.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OSMIUM_DIR = resolve(import.meta.dirname, '../../test-results/osmium');
const QUERY = 'q=amenity=cafe or amenity=restaurant&near=35.8989,14.5146&radius=1000';

/** Reads `file` with the query of `search`; the GeoJSON export's features by `type/id`. */
async function exported(page: Page, file: string, search: string): Promise<Map<string, GeoJSON.Feature>> {
  await page.goto(`/?${search}`);
  await page.locator('input[type=file]').setInputFiles(join(OSMIUM_DIR, file));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const features: GeoJSON.Feature[] = JSON.parse(readFileSync(await (await download).path(), 'utf8')).features;
  return new Map(features.map((f) => [`${f.properties!.osm_type}/${f.properties!.osm_id}`, f]));
}

test('on a history file a person sees what was created, modified and deleted between two dates: on the map, in the table, in the export', async ({ page }) => {
  test.setTimeout(180_000);
  // Each later version in the fixture changes the tags or the place: a match of both
  // snapshots that differs is modified, one that is the same is unchanged.
  const before = await exported(page, 'malta-2024-06-01.osm.pbf', QUERY);
  const after = await exported(page, 'malta-now.osm.pbf', QUERY);
  const same = (a: GeoJSON.Feature, b: GeoJSON.Feature) => JSON.stringify([a.properties, a.geometry]) === JSON.stringify([b.properties, b.geometry]);
  const want = new Map<string, string>();
  for (const [key, f] of after) if (!before.has(key)) want.set(key, 'created');
  else if (!same(before.get(key)!, f)) want.set(key, 'modified');
  for (const key of before.keys()) if (!after.has(key)) want.set(key, 'deleted');
  const count = (change: string) => [...want.values()].filter((c) => c === change).length;
  expect([count('created'), count('modified'), count('deleted')].every((n) => n > 0)).toBe(true);

  const changed = await exported(page, 'malta-history.osh.pbf', `${QUERY}&from=2024-06-01T00:00:00Z`);
  expect(new Map([...changed].map(([key, f]) => [key, f.properties!.change]))).toEqual(want);
  for (const [key, f] of changed) if (f.properties!.change === 'deleted') expect(f.geometry, `${key} is where it was`).toEqual(before.get(key)!.geometry);

  // Counted, in the legend's colours.
  await expect(page.getByTestId('result-count')).toHaveText(String(want.size));
  const legend = page.getByTestId('change-counts');
  for (const change of ['created', 'modified', 'deleted']) await expect(legend.locator(`[data-change=${change}]`)).toHaveText(`${count(change)} ${change}`);
  // Drawn in three colours: each drawn match in its class's colour, as MapLibre evaluated it.
  const drawn = await page.evaluate(() => {
    const map = (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap;
    map.setZoom(15);
    type Colour = { r: number; g: number; b: number };
    const hex = (c: Colour) => `#${[c.r, c.g, c.b].map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('')}`;
    return new Promise<[string, string][]>((done) =>
      map.once('idle', () =>
        done(map.queryRenderedFeatures({ layers: ['matches', 'match-areas'] }).map((f) => {
          const paint = f.layer.paint as Record<string, Colour | undefined>;
          return [String(f.properties.change), hex((paint['circle-color'] ?? paint['fill-color'])!)];
        })),
      ),
    );
  });
  const colours = new Map<string, Set<string>>();
  for (const [change, colour] of drawn) colours.set(change, (colours.get(change) ?? new Set()).add(colour));
  expect(colours).toEqual(new Map([['created', new Set(['#1a7f37'])], ['modified', new Set(['#0969da'])], ['deleted', new Set(['#cf222e'])]]));
  // A column of the table.
  await expect(page.locator('[data-testid=column-header][data-column=change]')).toBeVisible();
  const deleted = [...want].find(([, c]) => c === 'deleted')![0].split('/');
  await page.getByTestId('column-header').and(page.locator('[data-column=change]')).click();
  const row = page.locator(`[data-testid=result-item][data-osm-type=${deleted[0]}][data-osm-id="${deleted[1]}"]`);
  await expect(row).toContainText('deleted');
  // The link carries both moments; the date control changes the first.
  expect(new URL(page.url()).searchParams.get('from')).toBe('2024-06-01T00:00:00Z');
  await page.getByTestId('from').fill('2025-01-15T00:00:00');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(legend.locator('[data-change=created]')).toHaveText('1 created');
  await expect(legend.locator('[data-change=deleted]')).toHaveText('0 deleted');
});

test('a file of one version per element says a change view needs a history file', async ({ page }) => {
  await page.goto(`/?${QUERY}&from=2024-06-01T00:00:00Z`);
  await page.locator('input[type=file]').setInputFiles(join(OSMIUM_DIR, 'malta-now.osm.pbf'));
  await expect(page.getByTestId('status')).toContainText('needs a history file', { timeout: 60_000 });
  await expect(page.getByTestId('change-counts')).toBeHidden();
});
