/**
 * Load and soak on the 110 MB synthetic file: 50 queries in a row in one page (Malta's listed
 * queries around each of the 20 shifted copies, a long whole-file read replaced mid-file by the
 * next query now and then), every answer right, one decode worker per core throughout, renderer
 * memory given back; and two pages querying at once.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, QUERIES, expectedAnswer, type ListedQuery } from './data';

const BIG = 'malta-x20-synthetic.osm.pbf';
const status = (page: Page) => page.getByTestId('status');
const count = (page: Page) => page.getByTestId('result-count');
const decodeWorkers = (page: Page) => page.workers().filter((w) => w.url().includes('decode-worker'));

/**
 * Malta's listed query moved to copy `k` of the synthetic file (data README: +1.2·(k mod 5)° lon,
 * +⌊k/5⌋° lat), where it has Malta's answer: a bbox on any copy; a circle only on copies 0–4,
 * moved in longitude alone (a degree of longitude is shorter further north, so a café 990 m
 * away at Malta's latitude is 1013 m away two rows up: copy 12 has 44 cafés).
 */
function onCopy(q: ListedQuery, k: number): ListedQuery {
  const [dLon, dLat] = [1.2 * (k % 5), Math.floor(k / 5)];
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    ...q,
    near: q.near && [round(q.near[0] + dLat), round(q.near[1] + dLon)],
    bbox: q.bbox && [round(q.bbox[0] + dLon), round(q.bbox[1] + dLat), round(q.bbox[2] + dLon), round(q.bbox[3] + dLat)],
  };
}

/** Fills the form with `q` (its area, or the whole file) and presses Run. */
async function runFromForm(page: Page, q: Pick<ListedQuery, 'q' | 'near' | 'radius' | 'bbox'>): Promise<void> {
  await page.getByLabel('Query', { exact: true }).fill(q.q);
  const place = q.near ? 'circle' : q.bbox ? 'bbox' : 'everywhere';
  await page.locator('select[name=place]').selectOption(place);
  if (q.near) {
    await page.getByLabel('Centre (lat,lon)').fill(q.near.join(','));
    await page.getByLabel('Radius (m)').fill(String(q.radius));
  }
  if (q.bbox) await page.locator('input[name=bbox]').fill(q.bbox.join(','));
  await page.getByRole('button', { name: 'Run query' }).click();
}

/** Resident memory (bytes) of the largest renderer process, read from /proc (Linux). */
async function rendererRss(page: Page): Promise<number> {
  const cdp = await page.context().browser()!.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { id: number; type: string }[] };
  await cdp.detach();
  let most = 0;
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    const m = readFileSync(`/proc/${p.id}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    if (m) most = Math.max(most, Number(m[1]) * 1024);
  }
  return most;
}

/** The renderer's RSS once it stops falling (two readings a second apart within 2 %, at most 30 s): V8 frees lazily. */
async function settledRss(page: Page): Promise<number> {
  let last = await rendererRss(page);
  for (let waited = 0; waited < 30_000; waited += 1000) {
    await page.waitForTimeout(1000);
    const now = await rendererRss(page);
    if (Math.abs(now - last) <= 0.02 * last) return now;
    last = now;
  }
  return last;
}

test('50 queries in a row in one page: every answer right, workers one per core, memory given back', async ({ page }) => {
  test.setTimeout(900_000);
  const malta = QUERIES.filter((q) => q.file === 'malta.osm.pbf');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.goto('/?q=amenity%3Dcafe&near=36.8989,15.7146&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, BIG)); // the first read builds the blob index
  await expect(status(page)).toHaveText('done', { timeout: 120_000 });
  await expect(count(page)).toHaveText('43');
  let settled = 0;
  for (let i = 0; i < 50; i++) {
    const listed = malta[i % malta.length];
    const q = onCopy(listed, listed.bbox ? i % 20 : i % 5);
    if (i % 10 === 5) {
      // A long read (every building of the file), replaced mid-file by the next query.
      await runFromForm(page, { q: 'building' });
      await expect(page.locator('#stats')).toContainText('blobs decoded', { timeout: 60_000 });
      await expect(status(page)).not.toHaveText(/^(done|error)/);
    }
    await runFromForm(page, q);
    const label = `query ${i + 1}: ${q.q} at ${q.near ?? q.bbox}`;
    await expect(status(page), label).toHaveText('done', { timeout: 120_000 });
    await expect(count(page), label).toHaveText(String(expectedAnswer(listed).count));
    if (i % 10 === 9) expect(decodeWorkers(page).length, `decode workers after query ${i + 1}`).toBe(cores);
    // The baseline follows the first long read: Wasm memory, once grown to a run's needs, stays
    // reserved for the next run, so it is the 44 queries after it (4 more long reads among
    // them) that must not add to it.
    if (i === 5) settled = await settledRss(page);
  }
  // Memory comes back once the last query's work is collected (V8 frees it lazily).
  await expect.poll(async () => (await rendererRss(page)) / settled, { timeout: 30_000, intervals: [1000] }).toBeLessThanOrEqual(1.2);
});

test('two pages querying the same file at once both finish right', async ({ page, context }) => {
  const other = await context.newPage();
  const copy6 = '?q=amenity%3Dcafe&near=36.8989,15.7146&radius=1000';
  await Promise.all([page.goto(`/${copy6}`), other.goto(`/${copy6}`)]);
  await Promise.all([page, other].map((p) => p.locator('input[type=file]').setInputFiles(join(DATA_DIR, BIG))));
  for (const p of [page, other]) {
    await expect(status(p)).toHaveText('done', { timeout: 180_000 });
    await expect(count(p)).toHaveText('43');
  }
});
