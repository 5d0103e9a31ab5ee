/**
 * The answer as a table: columns for the query's keys and the answer's frequent keys, sorting
 * by a column header, and tag statistics whose values add a condition to the query.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, languageAnswer } from './data';

const cafes: { nodes: number[] } = JSON.parse(readFileSync(join(DATA_DIR, 'expected/helsinki.cafe-1000m.json'), 'utf8'));
const countOf = (q: string) => languageAnswer(q).length;

test('the table sorts by a column and the statistics refine the query', async ({ page }) => {
  await page.goto('/?q=amenity%3Dcafe&near=60.1699,24.9384&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done');
  const headers = page.getByTestId('column-header');
  await expect(headers.nth(3)).toHaveText('amenity'); // the query's key comes first
  expect((await headers.allTextContents()).slice(0, 3)).toEqual(['type', 'id', 'name']);
  const first = page.getByTestId('result-item').first();
  await headers.nth(1).click();
  await expect(headers.nth(1)).toHaveText('id ▲');
  await expect(first).toHaveAttribute('data-osm-id', String(Math.min(...cafes.nodes)));
  await headers.nth(1).click();
  await expect(first).toHaveAttribute('data-osm-id', String(Math.max(...cafes.nodes)));
  // The largest id (10 digits) is shown whole, not cut short with an ellipsis.
  const idCell = first.locator('span').nth(1);
  await expect(idCell).toHaveText(String(Math.max(...cafes.nodes)));
  expect(await idCell.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);

  await page.getByTestId('tag-stats').locator('summary').click();
  await expect(page.getByTestId('stats-types')).toHaveText('87 nodes · 0 ways · 0 relations');
  await expect(page.locator('[data-testid=stats-key][data-text=amenity]')).toHaveText('amenity (87)');
  await page.locator('[data-testid=stats-key][data-text=cuisine]').click();
  const value = page.getByTestId('stats-value').first();
  const [, text, count] = /^(.*) \((\d+)\)$/.exec((await value.textContent())!)!;
  await value.click();
  await expect(page.getByLabel('Query', { exact: true })).toHaveValue(new RegExp(`^\\(amenity=cafe\\) and cuisine="?${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?$`));
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('result-count')).toHaveText(count);
});

test('a value of the statistics refines the whole query, or excludes itself, as libosmium answers it', async ({ page }) => {
  const query = 'amenity=cafe or amenity=restaurant';
  await page.goto(`/?q=${query}&near=35.8989,14.5146&radius=1000`);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(query)));
  await page.getByTestId('tag-stats').locator('summary').click();
  await page.locator('[data-testid=stats-key][data-text=cuisine]').click();
  await page.locator('[data-testid=stats-value][data-text=italian]').click();
  const field = page.getByLabel('Query', { exact: true });
  const kept = `(${query}) and cuisine=italian`;
  await expect(field).toHaveValue(kept);
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(kept))); // 9, not every café as well
  // Back to the question, then without the Italian ones.
  await page.goBack();
  await expect(field).toHaveValue(query);
  await expect(page.getByTestId('status')).toHaveText('done');
  await page.locator('[data-testid=stats-key][data-text=cuisine]').click();
  await page.locator('[data-testid=stats-exclude][data-text=italian]').click();
  const excluded = `(${query}) and not cuisine=italian`;
  await expect(field).toHaveValue(excluded);
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('result-count')).toHaveText(String(countOf(excluded)));
});

test('a click on a row lands even when the table redraws between the press and the release', async ({ page }) => {
  await page.goto('/?src=/sample/helsinki.osm.pbf&q=amenity=parking&near=60.1699,24.9384&radius=1000');
  await expect(page.getByTestId('status')).toHaveText('done');
  await expect(page.getByTestId('column-header').nth(3)).toHaveText('amenity'); // the last redraw of the answer
  const first = page.getByTestId('result-item').first();
  const id = await first.getAttribute('data-osm-id');
  await first.scrollIntoViewIfNeeded();
  const box = (await first.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height / 2); // on its type cell: the row is wider than the panel
  await page.mouse.down();
  // A redraw (as when the tag columns or more rows arrive): the first cell's text is written anew.
  const text = await first.locator('span').first().evaluateHandle((cell) => cell.firstChild);
  await page.getByTestId('result-scroll').dispatchEvent('scroll');
  await page.waitForFunction((old) => document.querySelector('[data-testid=result-item] span')?.firstChild !== old, text);
  await page.mouse.up();
  await expect(page.getByTestId('popup')).toBeVisible();
  await expect(page.getByTestId('popup').locator('a').first()).toHaveAttribute('href', new RegExp(`/${id}$`));
});
