/**
 * Areas people think in, through the page: a boundary of the file picked by its name, a polygon
 * drawn on the map, and a polygon loaded from a `.poly` file. Answers are those of
 * `tests/answers/areas/answers.json` (libosmium's area assembler and shapely, by
 * tests/answers/areas/make-answers.py), read from the GeoJSON export and the count a person sees.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR } from './data';

interface Answer {
  file: string;
  area: { relation?: number; polygon?: number[][][][] };
  q: string;
  inside: 'any' | 'all';
  nodes: number[];
  ways: number[];
  relations: number[];
}
const ANSWERS: Answer[] = JSON.parse(readFileSync(resolve(import.meta.dirname, '../answers/areas/answers.json'), 'utf8'));
const answerOf = (test: (a: Answer) => boolean) => ANSWERS.find(test)!;
const countOf = (a: Answer) => a.nodes.length + a.ways.length + a.relations.length;

/** The ids of the GeoJSON export, by type. */
async function exportedIds(page: Page): Promise<Record<string, number[]>> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const features: GeoJSON.Feature[] = JSON.parse(readFileSync(await (await download).path(), 'utf8')).features;
  const ids = (type: string) => features.filter((f) => f.properties?.osm_type === type).map((f) => f.properties?.osm_id).sort((x, y) => x - y);
  return { nodes: ids('node'), ways: ids('way'), relations: ids('relation') };
}

test('a person types a town’s name, picks its boundary, and sees the restaurants inside its outline', async ({ page }) => {
  const valletta = answerOf((a) => a.area.relation === 7510580 && a.q === 'amenity=restaurant');
  await page.goto('/?q=amenity=restaurant&near=35.8989,14.5146&radius=300');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('place-hint')).toContainText('named places in this file (boundaries, multipolygons, place nodes)');
  await page.getByTestId('place-name').fill('vallet');
  const pick = page.getByTestId('place-suggestions').getByRole('button').first();
  await expect(pick).toContainText('Valletta');
  await expect(pick).toContainText('boundary=administrative · admin_level 8');
  await expect(pick).toContainText('relation 7510580');
  await pick.click();
  await expect(page.locator('[name=relation]')).toHaveValue('relation/7510580');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(valletta)));
  expect(page.url()).toContain('in=relation/7510580');
  // The outline is drawn: the map's area source holds the relation's multipolygon.
  const drawn = await page.evaluate(async () => {
    const map = (window as unknown as { pbfExplorerMap: { getSource(id: string): { getData(): Promise<GeoJSON.Feature> } } }).pbfExplorerMap;
    return JSON.stringify((await map.getSource('area').getData()).geometry);
  });
  expect(drawn).toContain('"type":"MultiPolygon"');
  expect(drawn).toContain('[14.5'); // Valletta's outline, at 14.5° east
  expect(await exportedIds(page)).toEqual({ nodes: valletta.nodes, ways: valletta.ways, relations: valletta.relations });
  // A link carries it: opened again, the same answer.
  await page.goto(page.url().replace(/&?file=[^&]*/, ''));
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(valletta)));
});

test('a place node found by name makes a circle around it, sized for its kind', async ({ page }) => {
  // The file's nodes with a place tag, as osmium writes them (scripts/make-osmium-fixtures.sh).
  const opl = readFileSync(resolve(import.meta.dirname, '../../test-results/osmium/malta-places.opl'), 'utf8').split('\n');
  const line = opl.find((l) => /[ ,]T?name=Valletta,/.test(l) && /[ ,]place=city[, ]/.test(l))!;
  const [, id] = /^n(\d+) /.exec(line)!;
  const [lon, lat] = [Number(/ x(\S+)/.exec(line)![1]), Number(/ y(\S+)/.exec(line)![1])];
  await page.goto('/?q=amenity=restaurant&near=60.1699,24.9384&radius=300');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await page.getByTestId('place-name').fill('valletta');
  const pick = page.getByTestId('place-suggestions').getByRole('button').filter({ hasText: `node ${id}` });
  await expect(pick).toContainText('place=city');
  // The boundary relation comes first, then the city's node.
  await expect(page.getByTestId('place-suggestions').getByRole('button').first()).toContainText('relation 7510580');
  await pick.click();
  await expect(page.getByRole('combobox', { name: 'Place' })).toHaveValue('circle');
  await expect(page.locator('[name=near]')).toHaveValue(`${lat.toFixed(5)},${lon.toFixed(5)}`);
  await expect(page.locator('[name=radius]')).toHaveValue('5000');
  // The map frames the circle: the node is in the middle of the view.
  await expect.poll(() => page.evaluate(() => (window as unknown as { pbfExplorerMap: import('maplibre-gl').Map }).pbfExplorerMap.getCenter().toArray())).toEqual([expect.closeTo(lon, 2), expect.closeTo(lat, 2)]);
});

test('a relation that is no area says so and reads nothing more', async ({ page }) => {
  await page.goto('/?q=amenity&in=relation/1');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('error: no area to read in: relation 1 is not in the file', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText('0');
});

test('a polygon drawn on the map is the area, and the link carries it', async ({ page }) => {
  const helsinki = answerOf((a) => a.file === 'helsinki.osm.pbf');
  const ring = helsinki.area.polygon![0][0].slice(0, 4);
  await page.goto('/?q=amenity=cafe&map=13.00/60.17000/24.94000');
  await page.getByRole('combobox', { name: 'Place' }).selectOption('polygon');
  await page.getByTestId('draw-polygon').click();
  await expect(page.getByTestId('draw-polygon')).toHaveText('Done drawing');
  // Each click adds the map point under it; the map is framed on the polygon's corners.
  const map = page.locator('#map canvas');
  for (const [lon, lat] of ring) {
    const point = await page.evaluate(([lon, lat]) => (window as unknown as { pbfExplorerMap: { project(p: number[]): { x: number; y: number } } }).pbfExplorerMap.project([lon, lat]), [lon, lat]);
    await map.click({ position: point });
  }
  await page.getByTestId('draw-polygon').click();
  const typed = (await page.locator('[name=poly]').inputValue()).split(' ').map(Number);
  expect(typed).toHaveLength(8);
  ring.forEach(([lon, lat], i) => {
    expect(Math.abs(typed[2 * i] - lat)).toBeLessThan(3e-4);
    expect(Math.abs(typed[2 * i + 1] - lon)).toBeLessThan(3e-4);
  });
  // Clicks land within a pixel of the corners: the test area is the polygon as typed.
  await page.locator('[name=poly]').fill(ring.map(([lon, lat]) => `${lat} ${lon}`).join(' '));
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(helsinki)));
  expect(decodeURIComponent(page.url())).toContain('poly=60.165+24.93+60.165+24.95+60.175+24.95+60.175+24.93');
  expect(await exportedIds(page)).toEqual({ nodes: helsinki.nodes, ways: helsinki.ways, relations: helsinki.relations });
});

test('a .poly file dropped or loaded is the area, with its hole and its second part', async ({ page }, info) => {
  const parts = answerOf((a) => a.file === 'malta.osm.pbf' && a.area.polygon !== undefined);
  const section = (name: string, ring: number[][]) => [name, ...ring.map(([lon, lat]) => `  ${lon}  ${lat}`), 'END'];
  const lines = ['test', ...section('1', parts.area.polygon![0][0]), ...section('!1h', parts.area.polygon![0][1]), ...section('2', parts.area.polygon![1][0]), 'END'];
  const file = info.outputPath('area.poly');
  writeFileSync(file, lines.join('\n'));
  await page.goto(`/?q=${encodeURIComponent(parts.q)}`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('combobox', { name: 'Place' }).selectOption('polygon');
  await page.getByTestId('polygon-file').click();
  await (await chooser).setFiles(file);
  await expect(page.locator('[name=poly]')).toHaveValue(/;!35\.898 14\.51 .*;35\.88 14\.48 /);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(parts)));
  expect(await exportedIds(page)).toEqual({ nodes: parts.nodes, ways: parts.ways, relations: parts.relations });
  // A broken file says what is wrong and changes nothing.
  writeFileSync(file, 'test\n1\n14.5 35.9\nnot numbers\nEND\nEND\n');
  const again = page.waitForEvent('filechooser');
  await page.getByTestId('polygon-file').click();
  await (await again).setFiles(file);
  await expect(page.getByTestId('status')).toHaveText('error: area.poly: .poly line 4: "not numbers" is not a longitude and latitude');
});
