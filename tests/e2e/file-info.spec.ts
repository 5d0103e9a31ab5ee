/**
 * The file-info view: opening each shared file shows what `osmium fileinfo` says about it
 * (tests/answers/file-info/*.json, tests/answers/file-info/make-answers.sh): the header's fields at once, and
 * after the read the counts, id ranges and newest timestamp, as text and as JSON; the GeoJSON
 * export carries the same facts in its top-level `metadata`; a zstd twin counts its blobs as zstd.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR, FIXTURE_DIR } from './data';

const here = dirname(fileURLToPath(import.meta.url));
const answers = (name: string) => JSON.parse(readFileSync(resolve(here, '../answers/file-info', `${name}.json`), 'utf8'));

/** The page's file info once a whole read has counted the file. */
async function fileInfo(page: Page) {
  const json = page.getByTestId('file-info');
  await expect.poll(async () => JSON.parse((await json.textContent()) || '{}').facts ?? null, { timeout: 30_000 }).not.toBeNull();
  return JSON.parse((await json.textContent())!);
}

for (const name of ['helsinki', 'malta']) {
  test(`${name}: the file info shows what osmium fileinfo says`, async ({ page }) => {
    const want = answers(name);
    await page.goto('/?q=amenity%3Dcafe&near=0,0&radius=10');
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, `${name}.osm.pbf`));
    const info = await fileInfo(page);
    expect(info.size).toBe(readFileSync(join(DATA_DIR, `${name}.osm.pbf`)).length);
    expect(info.header.writing_program).toBe(want.header.writing_program);
    expect(info.header.replication_timestamp).toBe(want.header.replication_timestamp_epoch);
    expect(info.header.replication_sequence_number === null ? null : String(info.header.replication_sequence_number)).toBe(want.header.replication_sequence_number);
    // osmium prints the header's nanodegrees cut to 1e-7 degrees.
    info.header.bbox.forEach((v: number, i: number) => expect(Math.abs(v - want.header.bbox[i])).toBeLessThan(1e-7));
    for (const [type, key] of [['nodes', 'node'], ['ways', 'way'], ['relations', 'relation']]) {
      expect(info.facts.counts[type], type).toBe(want.count[type]);
      expect(info.facts.id_ranges[key], type).toEqual([want.minid[type], want.maxid[type]]);
    }
    expect(info.facts.newest_timestamp).toBe(want.newest_timestamp_epoch);
    expect(info.facts.blobs).toEqual({ zlib: expect.any(Number) });
    // What a person reads.
    const view = page.getByRole('group', { name: 'File info' });
    await expect(view).toBeVisible();
    await expect(view).toContainText(`Nodes${want.count.nodes.toLocaleString('en-US')}`);
    await expect(view).toContainText(`Newest timestamp${want.newest_timestamp}`);
    await expect(view).toContainText(`Writing program${want.header.writing_program}`);
  });
}

// The data README's counts (expected/NAME.counts.json), from the Wasm build in Chromium.
for (const name of ['helsinki', 'malta', 'malta-x20-synthetic']) {
  test(`${name}: the page counts what the data README says`, async ({ page }) => {
    const want = JSON.parse(readFileSync(join(DATA_DIR, `expected/${name}.counts.json`), 'utf8'));
    await page.goto('/?q=amenity%3Dcafe&near=0,0&radius=10');
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, `${name}.osm.pbf`));
    const c = (await fileInfo(page)).facts.counts;
    expect([c.nodes, c.ways, c.relations, c.tags, c.way_refs, c.relation_members]).toEqual(
      [want.nodes, want.ways, want.relations, want.tags, want.way_refs, want.members],
    );
  });
}

test('the sample shows its file info once it is read, and the export carries it', async ({ page }) => {
  await page.goto('/?q=amenity%3Dcafe&near=60.1699,24.9384&radius=500');
  await page.getByRole('button', { name: 'Use sample (Helsinki)' }).click();
  await expect(page.getByRole('group', { name: 'File info' })).toContainText('Required featuresOsmSchema-V0.6, DenseNodes');
  const info = await fileInfo(page);
  await expect(page.getByTestId('status')).toHaveText('done');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const geojson = JSON.parse(readFileSync((await (await download).path())!, 'utf8'));
  expect(geojson.metadata.file.facts).toEqual(info.facts);
  expect(geojson.metadata.query.q).toBe('amenity=cafe');
  expect(geojson.features.length).toBeGreaterThan(0);
});

test('a zstd twin counts its blobs as zstd', async ({ page }) => {
  await page.goto('/?q=amenity%3Dcafe&near=0,0&radius=10');
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'malta.zstd.osm.pbf'));
  const info = await fileInfo(page);
  expect(Object.keys(info.facts.blobs)).toEqual(['zstd']);
  expect(info.facts.counts.nodes).toBe(answers('malta').count.nodes);
});

/** The header bbox the map draws, `[w, s, e, n]` in degrees (null when none). */
async function drawnHeaderBbox(page: Page): Promise<number[] | null> {
  return page.evaluate(async () => {
    const map = (window as unknown as { pbfExplorerMap: { getSource(id: string): { getData(): Promise<GeoJSON.FeatureCollection | GeoJSON.Feature> } } }).pbfExplorerMap;
    const data = await map.getSource('header-bbox').getData();
    const features = data.type === 'FeatureCollection' ? data.features : [data];
    const ring = features.flatMap((f) => (f.geometry.type === 'Polygon' ? f.geometry.coordinates[0] : []));
    if (ring.length === 0) return null;
    const lons = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
  });
}

test("the map draws the header's bbox of the file read, with the answer or, when it frames the view, as the page hears of the header", async ({ page }) => {
  const near = (got: number[] | null, want: number[]) => got !== null && got.every((v, i) => Math.abs(v - want[i]) < 1e-6);
  // An area query: the bbox waits for the first matches (one map frame instead of two).
  await page.goto('/?q=amenity%3Dcafe&near=35.8989,14.5146&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 30_000 });
  await expect.poll(async () => near(await drawnHeaderBbox(page), answers('malta').header.bbox)).toBe(true);
  // Another file with no match in the area: its own bbox, drawn at the end, not Malta's.
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 30_000 });
  await expect(page.getByTestId('result-count')).toHaveText('0');
  await expect.poll(async () => near(await drawnHeaderBbox(page), answers('helsinki').header.bbox)).toBe(true);
  // The whole file: the view is framed on the bbox as the page hears of the header (with the
  // first report, after a run's quiet first second, or with the answer).
  await page.goto('/?q=amenity%3Dcafe');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 30_000 });
  // The bbox comes with the answer of so short a run; the map applies it a moment after `done`.
  const [w, s, e, n] = answers('malta').header.bbox;
  await expect.poll(async () => near(await drawnHeaderBbox(page), [w, s, e, n])).toBe(true);
  const centre = () => page.evaluate(() => (window as unknown as { pbfExplorerMap: { getCenter(): { lng: number; lat: number } } }).pbfExplorerMap.getCenter());
  await expect.poll(async () => {
    const c = await centre();
    return c.lng > w && c.lng < e && c.lat > s && c.lat < n;
  }).toBe(true);
});
