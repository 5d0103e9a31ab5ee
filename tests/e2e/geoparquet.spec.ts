/**
 * The page's GeoParquet export: its writer's module is fetched only when a person asks for the
 * export, and the file it saves holds what the GeoJSON export holds (read by DuckDB and pyarrow,
 * tests/python/geoparquet_check.py), the table's filter included.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DATA_DIR, GEOPARQUET_CHECK, PYTHON } from './data';

/** Clicks the export button `testId` and returns the saved file's path. */
async function saved(page: Page, testId: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  return (await download).path();
}

test('Export GeoParquet saves the answer as the GeoJSON export has it, its writer fetched only then', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto('/?q=amenity=restaurant or amenity=cafe&near=35.8989,14.5146&radius=1500');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  const isWriter = (url: string) => url.includes('pbf_explorer_geoparquet');
  expect(fetched.filter(isWriter)).toEqual([]);
  // The table's filter keeps some rows: both exports hold only those.
  await page.getByTestId('result-filter').fill('pizza');
  await expect(page.getByTestId('filter-count')).toContainText('of');
  const parquet = await saved(page, 'export-geoparquet');
  expect(fetched.filter(isWriter).length).toBeGreaterThan(0);
  const geojson = await saved(page, 'export-geojson');
  const read = spawnSync(PYTHON, [GEOPARQUET_CHECK, parquet, geojson], { encoding: 'utf8' });
  expect(read.status, read.stderr).toBe(0);
  const c = JSON.parse(read.stdout);
  expect(c.rows).toBeGreaterThan(0);
  expect(c).toMatchObject({ rows: c.geojsonRows, idsEqual: true, geometryUnequal: [], bboxWrong: [], tagsLost: [], pyarrowRows: c.rows });
  expect(c.geo).toMatchObject({ version: '1.1.0', primary_column: 'geometry', columns: { geometry: { encoding: 'WKB' } } });
  expect(c.pbfExplorer).toMatchObject({ generator: 'pbf-explorer', filter: 'pizza' });
  await expect(page.getByTestId('filter-count')).toContainText(`${c.rows} of`);
});
