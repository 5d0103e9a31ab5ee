/**
 * The query language through the page: each query of `tests/answers/language/answers.json` (answers
 * computed with pyosmium by tests/answers/language/make-answers.py from predicates written apart from
 * our parser) gives the same count and the same node, way and relation ids (read from the
 * GeoJSON export); a syntax error is shown with its column, marked in the field, and reads nothing.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR } from './data';

interface Answer {
  file: string;
  q: string;
  near?: [number, number];
  radius?: number;
  bbox?: [number, number, number, number];
  inside: 'any' | 'all';
  nodes: number[];
  ways: number[];
  relations: number[];
  count: number;
}
const ANSWERS: Answer[] = JSON.parse(readFileSync(resolve(import.meta.dirname, '../answers/language/answers.json'), 'utf8'));

for (const a of ANSWERS) {
  test(`${a.file}: ${a.q}${a.inside === 'all' ? ' (inside=all)' : ''}`, async ({ page }) => {
    const params = new URLSearchParams({ q: a.q });
    if (a.near) params.set('near', a.near.join(','));
    if (a.radius) params.set('radius', String(a.radius));
    if (a.bbox) params.set('bbox', a.bbox.join(','));
    if (a.inside === 'all') params.set('inside', 'all');
    await page.goto(`/?${params}`);
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, a.file));
    await expect(page.getByTestId('status')).toHaveText('done', { timeout: 30_000 });
    await expect(page.getByTestId('result-count')).toHaveText(String(a.count));
    if (a.count === 0) return;
    const download = page.waitForEvent('download');
    await page.getByTestId('export-geojson').click();
    const features: GeoJSON.Feature[] = JSON.parse(readFileSync(await (await download).path(), 'utf8')).features;
    const ids = (type: string) => features.filter((f) => f.properties?.osm_type === type).map((f) => f.properties?.osm_id).sort((x, y) => x - y);
    expect(ids('node')).toEqual(a.nodes);
    expect(ids('way')).toEqual(a.ways);
    expect(ids('relation')).toEqual(a.relations);
  });
}

test('a syntax error names its column, marks it in the field and reads nothing', async ({ page }) => {
  await page.goto('/?q=shop');
  await page.getByLabel('Query', { exact: true }).fill('amenity=cafe or (shop=');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('error: invalid query: syntax error at column 23: expected a value after "="');
  const field = page.getByLabel('Query', { exact: true });
  await expect(field).toHaveAttribute('aria-invalid', '');
  expect(await field.evaluate((el: HTMLInputElement) => el.selectionStart)).toBe(22);
  await expect(page.locator('#stats')).toHaveText('');
  // A regular expression that does not compile says why.
  await field.fill('name~/(unclosed/');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(page.getByTestId('status')).toContainText('syntax error at column 6: the regular expression "(unclosed" does not compile');
  // Fixed, it runs.
  await field.fill('name~/^Caf/i');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 30_000 });
  await expect(field).not.toHaveAttribute('aria-invalid');
});
