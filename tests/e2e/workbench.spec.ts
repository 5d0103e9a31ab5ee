/**
 * The page as a workbench for the answer (issue "a workbench for the answer"): the centre set
 * only by an explicit tool that can be undone, "zoom to data" framing the matches, and links
 * to edit each match in iD and JOSM from its row and its popup.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR } from './data';

type MapHandle = { pbfExplorerMap: import('maplibre-gl').Map };

/** Where (`lon`, `lat`) is on the map's canvas, in CSS pixels. */
async function pointOf(page: Page, lon: number, lat: number): Promise<{ x: number; y: number }> {
  await page.waitForFunction(() => 'pbfExplorerMap' in window);
  return page.evaluate(([lon, lat]) => (window as unknown as MapHandle).pbfExplorerMap.project([lon, lat]), [lon, lat]);
}

test('a map click moves the centre only with "Set on the map" on, and the move can be undone', async ({ page }) => {
  await page.goto('/?q=amenity=cafe&near=60.1699,24.9384&radius=1000&map=13.00/60.17000/24.94000');
  const near = page.locator('[name=near]');
  const map = page.locator('#map canvas');
  await map.click({ position: await pointOf(page, 24.95, 60.175) });
  await expect(near).toHaveValue('60.1699,24.9384'); // a plain click (closing a popup, say) moves nothing
  await page.getByTestId('pick-centre').click();
  await expect(page.getByTestId('pick-centre')).toHaveAttribute('aria-pressed', 'true');
  await map.click({ position: await pointOf(page, 24.95, 60.175) });
  const [lat, lon] = (await near.inputValue()).split(',').map(Number);
  expect(Math.abs(lat - 60.175)).toBeLessThan(3e-4);
  expect(Math.abs(lon - 24.95)).toBeLessThan(3e-4);
  await expect(page.getByTestId('pick-centre')).toHaveAttribute('aria-pressed', 'false'); // one click, then off
  await page.getByTestId('undo-centre').click();
  await expect(near).toHaveValue('60.1699,24.9384');
  await expect(page.getByTestId('undo-centre')).toBeHidden();
});

test('"Zoom to data" frames the answer, and a whole-file answer is framed as it ends', async ({ page }) => {
  await page.goto('/?q=amenity=cafe&near=35.8989,14.5146&radius=1000');
  const zoom = page.getByTestId('zoom-to-data');
  await expect(zoom).toBeDisabled();
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  const view = () => page.evaluate(() => {
    const b = (window as unknown as MapHandle).pbfExplorerMap.getBounds();
    return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
  });
  // Far away, then back: the cafés of Valletta are in view again.
  await page.evaluate(() => (window as unknown as MapHandle).pbfExplorerMap.jumpTo({ center: [0, 0], zoom: 3 }));
  await zoom.click();
  const [w, s, e, n] = await view();
  expect(w < 14.5146 && 14.5146 < e && s < 35.8989 && 35.8989 < n, `${[w, s, e, n]}`).toBe(true);
  expect(e - w).toBeLessThan(0.1); // the data's extent, not the island's
  // A whole-file answer of a file whose header has no bbox (a history file osmium wrote):
  // framed on Malta and Gozo as it ends, not left on the default view (Helsinki).
  await page.goto('/?q=amenity=place_of_worship');
  await page.locator('input[type=file]').setInputFiles(join(resolve(import.meta.dirname, '../../test-results/osmium'), 'malta-history.osh.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect.poll(async () => {
    const [w, s, e, n] = await view();
    return w < 14.25 && e > 14.5 && s < 35.85 && n > 36.05;
  }).toBe(true);
});

test('every row and popup links to edit its element in iD and in JOSM', async ({ page }) => {
  await page.goto('/?src=/sample/helsinki.osm.pbf&q=amenity=cafe&near=60.1699,24.9384&radius=1000');
  await expect(page.getByTestId('status')).toHaveText('done');
  const row = page.getByTestId('result-item').first();
  const [type, id] = [(await row.getAttribute('data-osm-type'))!, (await row.getAttribute('data-osm-id'))!];
  const expectLinks = async (links: ReturnType<Page['getByTestId']>) => {
    await expect(links.getByRole('link', { name: 'iD' })).toHaveAttribute('href', `https://www.openstreetmap.org/edit?editor=id&${type}=${id}`);
    await expect(links.getByRole('link', { name: 'JOSM' })).toHaveAttribute('href', `http://127.0.0.1:8111/load_object?objects=${type[0]}${id}`);
  };
  await expectLinks(row.getByTestId('edit-links'));
  await row.locator('bdi').click();
  await expectLinks(page.getByTestId('popup').getByTestId('edit-links'));
});

test('a link made for one file says so when another is opened with it, and nothing of the last file stays', async ({ page }) => {
  const helsinki = join(DATA_DIR, 'helsinki.osm.pbf');
  await page.goto('/?q=shop&near=60.1699,24.9384&radius=1000');
  await page.locator('input[type=file]').setInputFiles(helsinki);
  await expect(page.getByTestId('status')).toHaveText('done');
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = new URL(page.url());
  expect([link.searchParams.get('file'), link.searchParams.get('size')]).toEqual(['helsinki.osm.pbf', '685110']);
  await expect(page.getByTestId('file-info')).toContainText('helsinki');
  // The link opened with Malta: a note, and only Malta's file info.
  await page.goto(link.pathname + link.search);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  const note = page.getByTestId('file-note');
  await expect(note).toBeVisible();
  await expect(note).toHaveText('This link was made for helsinki.osm.pbf (685,110 bytes); this is malta.osm.pbf (6,016,219 bytes): the answer is this file\'s.');
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('share-link')).toBeHidden();
  // Opened with its own file: no note.
  await page.goto(link.pathname + link.search);
  await page.locator('input[type=file]').setInputFiles(helsinki);
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(note).toBeHidden();
  // Another file, then: the last one's info is gone as soon as the read starts.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByTestId('share-link')).toBeVisible();
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('share-link')).toBeHidden();
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('file-info')).not.toContainText('helsinki');
  // Its link records the header's replication timestamp (Malta's, as osmium fileinfo gives it);
  // the same name and size with another timestamp in the link gets a note as the header comes.
  const malta = new URL(page.url());
  expect(malta.searchParams.get('stamp')).toBe('1710364872');
  malta.searchParams.set('stamp', '1700000000');
  await page.goto(malta.pathname + malta.search);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(note).toHaveText("This link was made for malta.osm.pbf with data of 2023-11-14T22:13:20Z; this file's data is of 2024-03-13T21:21:12Z: the answer is this file's.");
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
});

test('by keyboard: a skip link past the map to the query, and result rows in the tab order that open with Enter', async ({ page }) => {
  await page.goto('/?src=/sample/helsinki.osm.pbf&q=amenity=cafe&near=60.1699,24.9384&radius=1000');
  await expect(page.getByTestId('status')).toHaveText('done');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await expect(page.getByTestId('skip-link')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Query', { exact: true })).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
  const row = page.getByTestId('result-item').first();
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('popup')).toContainText(`on openstreetmap.org`);
  await expect(page.getByTestId('popup')).toContainText((await row.getAttribute('data-osm-id'))!);
});

test('style=KEY colours the matches by their values of a key, with a legend of the most frequent values and counts', async ({ page }) => {
  const cuisines = new Map<string, number>();
  await page.goto('/?q=amenity=cafe or amenity=restaurant&near=35.8989,14.5146&radius=1000&style=cuisine&map=15.00/35.89890/14.51460');
  await expect(page.getByTestId('style-key')).toHaveValue('cuisine');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  // The export says each match's cuisine: the legend counts them, most frequent first.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const features: GeoJSON.Feature[] = JSON.parse(readFileSync(await (await download).path(), 'utf8')).features;
  for (const f of features) cuisines.set(String(f.properties!.cuisine ?? ''), (cuisines.get(String(f.properties!.cuisine ?? '')) ?? 0) + 1);
  const legend = page.getByTestId('style-value');
  await expect(legend.first()).toBeVisible();
  const entries = (await legend.allTextContents()).map((t) => /^(.*) \(([\d,]+)\)$/.exec(t)!.slice(1));
  const top = entries.slice(0, -2);
  for (const [value, count] of top) expect(cuisines.get(value), value).toBe(Number(count.replace(/,/g, '')));
  expect(entries.at(-1)).toEqual(['no cuisine', String(cuisines.get('') ?? 0)]);
  expect(top.map(([, c]) => Number(c))).toEqual([...top.map(([, c]) => Number(c))].sort((a, b) => b - a));
  // Each drawn match in its value's colour, as MapLibre evaluated it.
  const idOf = new Map(features.map((f) => [`${f.properties!.osm_type}/${f.properties!.osm_id}`, String(f.properties!.cuisine ?? '')]));
  const drawn = await page.evaluate(() => {
    const map = (window as unknown as MapHandle).pbfExplorerMap;
    type Colour = { r: number; g: number; b: number };
    const hex = (c: Colour) => `#${[c.r, c.g, c.b].map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('')}`;
    return map.queryRenderedFeatures({ layers: ['matches'] }).map((f) => {
      const id = Number(f.id);
      const type = ['node', 'way', 'relation'][((id % 4) + 4) % 4];
      return [`${type}/${(id - (((id % 4) + 4) % 4)) / 4}`, hex((f.layer.paint as Record<string, Colour>)['circle-color'])];
    });
  });
  expect(drawn.length).toBeGreaterThan(10);
  const colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#c7c7c7'];
  for (const [key, colour] of drawn) {
    const cuisine = idOf.get(key)!;
    const at = top.findIndex(([v]) => v === cuisine);
    expect(colour, `${key} (${cuisine})`).toBe(colours[cuisine === '' ? top.length + 1 : at >= 0 ? at : top.length]);
  }
  // Emptied: by type again, and no legend.
  await page.getByTestId('style-key').fill('');
  await page.getByTestId('style-key').press('Tab'); // a change is committed as the field is left
  await expect(page.getByTestId('style-legend')).toBeHidden();
});

test("a query whose area lies outside the file's bbox says so as the file's header comes", async ({ page }) => {
  await page.goto('/?q=amenity=cafe&near=60.1699,24.9384&radius=1000'); // Helsinki
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  const note = page.getByTestId('area-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText("The query's area lies outside this file (its bbox is 13.815,35.520,14.856,36.333, framed on the map)");
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  // The map shows the file (Malta), not the circle over Helsinki.
  // (framed as the header is drawn, which may come after the status says done)
  await expect.poll(async () => {
    const [lon, lat] = await page.evaluate(() => (window as unknown as MapHandle).pbfExplorerMap.getCenter().toArray());
    return lon > 13.8 && lon < 14.9 && lat > 35.5 && lat < 36.4;
  }).toBe(true);
  await page.locator('[name=near]').fill('35.8989,14.5146');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(note).toBeHidden();
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(note).toBeHidden();
});
