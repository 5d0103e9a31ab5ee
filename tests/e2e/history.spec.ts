/**
 * History files through the page: the file `fixtures::history` writes (test-results/fixtures/
 * history.osh.pbf: versions, deletions, moved nodes, versions straddling blocks) answers as of
 * the moment in `at=` or the "As of" date control, now by default; the popup shows the version
 * it shows, with its changeset and history links. The answers are the ones the Rust tests
 * (wasm/tests/history.rs) assert.
 */
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { FIXTURE_DIR } from './data';

const AREA = 'q=amenity%3Dcafe&near=60.17,24.94&radius=1000';

/** The matches in the list as `n1`, `w10`, …, sorted. */
async function answer(page: Page): Promise<string[]> {
  await expect(page.getByTestId('status')).toHaveText('done');
  const items = page.getByTestId('result-item');
  // The list draws its rows after the run ends.
  await expect(items).toHaveCount(Number(await page.getByTestId('result-count').textContent()));
  const ids = await items.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-osm-type')![0]}${e.getAttribute('data-osm-id')}`));
  return ids.sort();
}

async function open(page: Page, search: string): Promise<void> {
  await page.goto(`/?${search}`);
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'history.osh.pbf'));
}

test('a history file answers as of the moment in at=', async ({ page }) => {
  await open(page, `${AREA}&at=2020-07-01T00:00:00Z`);
  expect(await answer(page)).toEqual(['n1', 'n2', 'n5', 'w10', 'w11', 'w12']);
  await expect(page.getByRole('group', { name: 'File info' })).toContainText('History fileyes');
  await open(page, `${AREA}&at=2021-07-01`);
  expect(await answer(page)).toEqual(['w10']);
});

test('without at= a history file answers as of now, and the date control asks for another moment', async ({ page }) => {
  await open(page, AREA);
  expect(await answer(page)).toEqual(['n7', 'w10']);
  await page.getByLabel('As of (UTC; history files)').fill('2020-07-01T00:00:00');
  await page.getByRole('button', { name: 'Run query' }).click();
  // The status said done before the click too: wait for the new answer.
  await expect.poll(() => answer(page)).toEqual(['n1', 'n2', 'n5', 'w10', 'w11', 'w12']);
  expect(new URL(page.url()).searchParams.get('at')).toMatch(/^2020-07-01T00:00(:00)?Z$/);
});

test('the popup shows the version it shows, its changeset and its history', async ({ page }) => {
  await open(page, AREA);
  await page.locator('[data-testid=result-item][data-osm-type=node][data-osm-id="7"]').click();
  const meta = page.getByTestId('popup').getByTestId('popup-meta');
  await expect(meta).toContainText('version 1 · 2022-05-01T00:00:00Z');
  await expect(meta).toContainText('by mapper');
  await expect(meta.getByRole('link', { name: /^changeset \d+$/ })).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/changeset\/\d+$/);
  await expect(meta.getByRole('link', { name: 'history' })).toHaveAttribute('href', 'https://www.openstreetmap.org/node/7/history');
});
