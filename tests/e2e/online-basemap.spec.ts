/**
 * The optional online basemap (`basemap=` or Settings): its style's layers are drawn under the
 * matches instead of the basemap drawn from the file, and a style that cannot load leaves the
 * page working offline, with a note. The style is served by Playwright from another origin.
 */
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { DATA_DIR } from './data';
import { KNOWN_HOSTS_KEY } from '../../web/known-hosts';

const STYLE_URL = 'https://tiles.example.org/styles/test/style.json';
/** A vector-free style: a background and one polygon around Helsinki's centre. */
const STYLE = {
  version: 8,
  sources: { city: { type: 'geojson', data: { type: 'Polygon', coordinates: [[[24.92, 60.16], [24.96, 60.16], [24.96, 60.18], [24.92, 60.18], [24.92, 60.16]]] } } },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': '#eeeeff' } },
    { id: 'city', type: 'fill', source: 'city', paint: { 'fill-color': '#ccccff' } },
  ],
};

// The style's host was allowed before (a link's basemap asks first: security.spec.ts).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(([key]) => localStorage.setItem(key, JSON.stringify(['tiles.example.org'])), [KNOWN_HOSTS_KEY]);
});

const layerIds = (page: Page) =>
  page.evaluate(() => (window as unknown as { pbfExplorerMap?: import('maplibre-gl').Map }).pbfExplorerMap?.getStyle()?.layers.map((l) => l.id) ?? []);

test('an online basemap is drawn instead of the one from the file', async ({ page }) => {
  await page.route(STYLE_URL, (route) => route.fulfill({ json: STYLE, headers: { 'access-control-allow-origin': '*' } }));
  await page.goto(`/?basemap=${encodeURIComponent(STYLE_URL)}&q=leisure%3Dpark&near=60.1699,24.9384&radius=1000`);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('basemap-note')).toHaveText('basemap: online, from tiles.example.org');
  const layers = await layerIds(page);
  expect(layers.slice(0, 2)).toEqual(['online:background', 'online:city']);
  expect(layers).not.toContain('context-buildings');
  expect(layers).toContain('match-areas');
  // Rendered once MapLibre has drawn the source's tiles (polled: they come after the answer).
  const rendered = () => page.evaluate(() => (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap.queryRenderedFeatures({ layers: ['online:city'] }).length);
  await expect.poll(rendered).toBeGreaterThan(0);
  // The link keeps it.
  expect(new URL(page.url()).searchParams.get('basemap')).toBe(STYLE_URL);
});

test('a basemap that cannot load leaves the page offline, with the basemap from the file', async ({ page }) => {
  await page.route(STYLE_URL, (route) => route.abort('internetdisconnected'));
  await page.goto(`/?basemap=${encodeURIComponent(STYLE_URL)}&q=leisure%3Dpark&near=60.1699,24.9384&radius=1000`);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('basemap-note')).toHaveText(/^online basemap unavailable \(.+\): drawn from the file instead · basemap: \d+ roads/);
  expect(await layerIds(page)).toContain('context-buildings');
});

test('Settings sets the online basemap in the URL, and its host needs no question', async ({ browser, baseURL }) => {
  const page = await (await browser.newContext({ baseURL })).newPage(); // no remembered host
  await page.route(STYLE_URL, (route) => route.fulfill({ json: STYLE, headers: { 'access-control-allow-origin': '*' } }));
  await page.goto('/?q=shop');
  await page.locator('#settings summary').click();
  await page.getByTestId('basemap-url').fill(STYLE_URL);
  await page.locator('#basemap-form button').click();
  await page.waitForURL((url) => url.searchParams.get('basemap') === STYLE_URL);
  await expect.poll(() => layerIds(page)).toContain('online:city');
  await expect(page.getByTestId('confirm-download')).toBeHidden();
});
