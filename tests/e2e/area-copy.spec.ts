/**
 * Area copies (docs/optimize.md, "Area copies"): after a question of an area on a local file,
 * the page keeps a copy of the place around it, grouped by place, in the Origin Private File
 * System; the next question within it — in the same tab or a new one — reads the copy and
 * gives the answer a read of the file gives (libosmium's, as listed). The same bytes with
 * another modification time, or the setting turned off, read the file; "Remove area copies"
 * removes them.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, QUERIES, querySearch, type ListedQuery } from './data';
import { expectListedAnswer } from './list';

const listed = (expected: string) => QUERIES.find((q) => q.file === 'malta.osm.pbf' && q.expected === expected)!;
const cafe = listed('malta.cafe-1000m.json');
const restaurants = listed('malta.restaurant-bbox.json');
const cuisine = listed('malta.restaurant-cuisine-500m.json');
const MALTA = join(DATA_DIR, 'malta.osm.pbf');
const FROM_COPY = 'from the area copy kept for this place';

async function run(page: Page, q: ListedQuery, file: string | { name: string; mimeType: string; buffer: Buffer } = MALTA) {
  await page.goto(`/${querySearch(q)}`);
  await page.locator('input[type=file]').setInputFiles(file);
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
}

const copyKept = (page: Page) => expect(page.getByTestId('area-copy-note')).toContainText('area copy kept for the next question here', { timeout: 60_000 });

test('the next question about the same place reads its area copy, in this tab and a new one, with the answer of the file', async ({ page, context }) => {
  await run(page, cafe);
  await expectListedAnswer(page, cafe);
  await expect(page.locator('#stats')).not.toContainText(FROM_COPY);
  await copyKept(page);
  for (const q of [restaurants, cuisine]) {
    await run(page, q);
    await expect(page.locator('#stats')).toContainText(FROM_COPY);
    await expect(page.getByTestId('area-copy-note')).toContainText('answered from the area copy');
    await expectListedAnswer(page, q);
  }
  // The file info is the file's, not the copy's.
  const info = JSON.parse((await page.getByTestId('file-info').textContent())!);
  expect(info.facts.counts.nodes).toBe(JSON.parse(readFileSync(join(DATA_DIR, 'expected/malta.counts.json'), 'utf8')).nodes);
  const other = await context.newPage();
  await run(other, restaurants);
  await expect(other.locator('#stats')).toContainText(FROM_COPY);
  await expectListedAnswer(other, restaurants);
  // Removed, the next question reads the file again (and keeps a new copy after it).
  await other.getByTestId('remove-area-copies').click();
  await expect(other.getByTestId('area-copy')).toBeHidden();
  await run(other, restaurants);
  await expect(other.locator('#stats')).not.toContainText(FROM_COPY);
  await expectListedAnswer(other, restaurants);
});

test('the same bytes with another modification time, or the setting turned off, read the file', async ({ page }) => {
  await run(page, cafe);
  await copyKept(page);
  // A buffer given to the file input gets the time of now: another file for the copies.
  await run(page, restaurants, { name: 'malta.osm.pbf', mimeType: 'application/octet-stream', buffer: readFileSync(MALTA) });
  await expect(page.locator('#stats')).not.toContainText(FROM_COPY);
  await expectListedAnswer(page, restaurants);
  await page.locator('summary', { hasText: 'Settings' }).click();
  await page.getByTestId('keep-area-copies').uncheck();
  await run(page, restaurants);
  await expect(page.locator('#stats')).not.toContainText(FROM_COPY);
  await expectListedAnswer(page, restaurants);
  await page.waitForTimeout(3000); // the basemap's read and what would follow it
  await expect(page.getByTestId('area-copy')).toBeHidden();
});
