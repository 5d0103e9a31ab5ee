/**
 * The page's "Run elsewhere" panel: the DuckDB program it shows for the query that ran answers,
 * run by DuckDB (tests/python/duckdb_run.py), with the elements the page counted and exports;
 * a tool that cannot answer the query as the page does says why instead of showing a program;
 * the Spark SQL and Overpass QL of the same query show too.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATA_DIR, PYTHON } from './data';

test('Run elsewhere shows a DuckDB program that answers as the page does, and says why osmium cannot', async ({ page }) => {
  await page.goto('/?q=amenity=cafe or amenity=restaurant&near=35.8989,14.5146&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
  const count = Number(await page.getByTestId('result-count').textContent());
  await page.getByTestId('run-elsewhere').locator('summary').click();
  const program = page.getByTestId('elsewhere-program');
  await expect(program).toContainText("FROM ST_ReadOSM('malta.osm.pbf')");
  await expect(page.getByTestId('elsewhere-copy')).toBeEnabled();
  // Run as shown, on the file it names.
  const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-elsewhere-'));
  const sql = join(dir, 'answer.sql');
  writeFileSync(sql, (await program.textContent())!.replace("ST_ReadOSM('malta.osm.pbf')", `ST_ReadOSM('${join(DATA_DIR, 'malta.osm.pbf')}')`));
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const run = spawnSync(PYTHON, [resolve(import.meta.dirname, '../python/duckdb_run.py'), sql, await (await download).path()], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const r = JSON.parse(run.stdout);
  expect(r.ids).toHaveLength(count);
  expect(r.ids).toEqual(r.ours);
  expect(r.waysUnequal).toEqual([]);
  // osmium's expressions have no area: the reason shows, and no program.
  await page.getByTestId('elsewhere-engine').selectOption('osmium');
  await expect(page.getByTestId('elsewhere-refused')).toContainText('osmium tags-filter cannot answer this query as pbf-explorer does: it answers the whole file');
  await expect(program).toBeHidden();
  await expect(page.getByTestId('elsewhere-copy')).toBeDisabled();
  expect(readFileSync(sql, 'utf8')).toContain('LOAD spatial;');
  // Spark SQL for Sedona and Overpass QL for the same query (their answers are checked by the
  // command line's tests): the file and the circle as each writes them.
  await page.getByTestId('elsewhere-engine').selectOption('sedona');
  await expect(program).toContainText("CREATE OR REPLACE TEMPORARY VIEW osm_file USING osmpbf OPTIONS (path 'malta.osm.pbf');");
  await page.getByTestId('elsewhere-engine').selectOption('overpass');
  await expect(program).toContainText('node(around:1000,35.8989,14.5146)->.located;');
  await expect(page.getByTestId('elsewhere-refused')).toBeHidden();
});
