/**
 * The basemap drawn from the file: after the answer, the page draws the roads, railways,
 * water, buildings, parks and landuse of the area under the matches, offline. The features
 * sent equal the reference (tests/answers/basemap/, from tests/answers/basemap/make-answers.py), every
 * basemap layer with features renders some in the view, and the matches layers render each
 * match. Areas larger than a city get a note instead.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR, SCREENSHOT_DIR } from './data';

const reference: { classes: Record<string, { features: number }> } = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../answers/basemap/helsinki-1000m.json'), 'utf8'),
);
/** The layer drawing each basemap class (web/map-view.ts). */
const LAYER_OF: Record<string, string> = {
  'major-road': 'context-major-roads',
  'minor-road': 'context-roads',
  path: 'context-paths',
  railway: 'context-railways',
  water: 'context-water',
  waterway: 'context-waterways',
  building: 'context-buildings',
  green: 'context-green',
  landuse: 'context-landuse',
};

/** Features MapLibre renders in the view, per layer; with `distinct`, counted once per match. */
function rendered(page: Page, layers: string[], distinct = false): Promise<number> {
  return page.evaluate(
    ([layers, distinct]) => {
      const map = (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap;
      const found = map.queryRenderedFeatures({ layers: layers as string[] });
      return distinct ? new Set(found.map((f) => f.id)).size : found.length;
    },
    [layers, distinct] as const,
  );
}

test('leisure=park in Helsinki: the parks as areas among the streets drawn from the file', async ({ page }) => {
  await page.goto('/?q=leisure%3Dpark&near=60.1699,24.9384&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done');
  const total = Object.values(reference.classes).reduce((n, c) => n + c.features, 0);
  await expect(page.getByTestId('basemap-note')).toHaveText(new RegExp(`^basemap: ${total} `), { timeout: 20_000 });
  await page.waitForFunction(() => (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap.loaded());
  for (const [klass, { features }] of Object.entries(reference.classes)) {
    if (features > 0) expect(await rendered(page, [LAYER_OF[klass]]), LAYER_OF[klass]).toBeGreaterThan(0);
  }
  // Each of the 14 parks is drawn: as an area, or as its lines (a broken multipolygon).
  await expect(page.getByTestId('result-count')).toHaveText('14');
  expect(await rendered(page, ['match-areas', 'match-lines', 'matches'], true)).toBe(14);
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'helsinki.leisure-park-basemap.png') });
});

test('an area larger than a city gets a note, not a basemap', async ({ page }) => {
  await page.goto('/?q=amenity%3Dcafe&near=35.8989,14.5146&radius=20000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('basemap-note')).toHaveText(/^no basemap: the area \(1257 km²\) is larger than a city/);
  expect(await rendered(page, Object.values(LAYER_OF))).toBe(0);
});
