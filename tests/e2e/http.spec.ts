/**
 * Reading a PBF from another origin over HTTP with Range requests, through a fault-injecting
 * layer in front of a real static server: every listed query gives exactly the listed ids under
 * each fault; a changing file, a server without CORS and a missing file give clear errors; links
 * reproduce queries.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';
import { DATA_DIR, QUERIES, expectedAnswer, querySearch } from './data';
import { listedIds } from './list';
import { KNOWN_HOSTS_KEY } from '../../web/known-hosts';
import { END_BYTES } from '../../workers/source/http-source';
import { QUIET_START_MS } from '../../workers/report-pace';

const status = (page: Page) => page.getByTestId('status');
const count = (page: Page) => page.getByTestId('result-count');
let server: { origin: string; close: () => Promise<void> };

test.beforeAll(async () => {
  server = await startFaultServer(DATA_DIR);
});
test.afterAll(async () => server.close());
// The tests' links go to the fault server: a visitor who has agreed to read from it before
// (the first link to a host asks; see the test of that below, in a context of its own).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(([key, host]) => localStorage.setItem(key, JSON.stringify([host])), [KNOWN_HOSTS_KEY, new URL(server.origin).host]);
});

/** The URL of `file` behind fault `mode`, with counters of its own (those of `token`: a fresh one by default). */
const url = (mode: string, file: string, token: string = randomUUID()) => `${server.origin}/${token}/${mode}/${file}`;

/** What the fault server has sent for `token` so far: requests, and body bytes. */
const served = async (token: string): Promise<{ requests: number; bytes: number }> => (await fetch(`${server.origin}/${token}/bytes`)).json();


/** Presses Copy link, checks the link holds `part`, and opens it in a new page. */
async function openCopiedLink(page: Page, context: BrowserContext, part: string): Promise<Page> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toContain(part);
  const other = await context.newPage();
  await other.goto(link);
  return other;
}

const MODES = ['clean', 'latency', '503-once', '429-once', 'cut-once', 'cut-stream-once', 'no-range', 'no-range-cut', 'range-only'];
const SMALL_QUERIES = QUERIES.filter((q) => q.expected);

for (const mode of MODES) {
  test(`over HTTP (${mode}): every listed query gives the listed ids`, async ({ page }) => {
    let fullReadsCut = 0;
    for (const q of SMALL_QUERIES) {
      const want = expectedAnswer(q);
      await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url(mode, q.file))}`);
      await expect(status(page)).toHaveText('done', { timeout: 60_000 });
      await expect(count(page)).toHaveText(String(want.count));
      const ids = [...want.nodes!.map((id) => `node ${id}`), ...want.ways!.map((id) => `way ${id}`), ...want.relations!.map((id) => `relation ${id}`)].sort();
      expect(await listedIds(page), `${q.file} ${q.q}`).toEqual(ids);
      const stats = page.locator('#stats');
      if (mode.startsWith('no-range')) await expect(stats).toContainText('the server has no Range support');
      // A stream is cut only in a full read (a file's later queries read by its blob index) of
      // a file larger than the first MiB, which comes with the probe.
      const streamed = !(await stats.textContent())!.includes('only the blobs the blob index names') && statSync(join(DATA_DIR, q.file)).size > END_BYTES;
      const faulted = mode === 'cut-stream-once' ? streamed : mode.endsWith('-once') || mode === 'no-range-cut';
      if (mode === 'cut-stream-once' && streamed) fullReadsCut++;
      if (faulted) await expect(stats).toContainText(/[1-9]\d* retries/);
    }
    if (mode === 'cut-stream-once') expect(fullReadsCut, 'full reads resumed after a cut').toBeGreaterThan(0);
  });
}

test('a server that stops sending mid-body: the progress line says the read waits for it, then the read resumes at the byte', async ({ page }) => {
  test.setTimeout(120_000);
  const q = SMALL_QUERIES.find((x) => x.file === 'malta.osm.pbf' && x.q === 'amenity=cafe')!;
  await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url('stall-stream-once', q.file))}`);
  const stats = page.locator('#stats');
  await expect(stats).toContainText(/waiting for the server: no byte for [3-9] s/, { timeout: 30_000 });
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(count(page)).toHaveText(String(expectedAnswer(q).count));
  await expect(stats).not.toContainText('waiting for the server');
  await expect(stats).toContainText(/[1-9]\d* retries/);
});

test('a run of over a second shows its progress, file info and first matches from its first second on', async ({ page }) => {
  // Over a slow link (2 MB/s) Malta's read takes ~3 s. The page hears nothing in a run's first
  // second; then what was held comes in one go, and the run goes on live.
  type W = { t0: number; firstReport: { at: number; value: number; info: boolean } | null; listedAt: number | null; doneAt: number | null };
  const q = SMALL_QUERIES.find((x) => x.file === 'malta.osm.pbf' && x.q === 'amenity=cafe')!;
  await page.goto(`/${querySearch(q)}`);
  await page.locator('html[data-ready]').waitFor({ state: 'attached' });
  await page.locator('#url-form input').fill(url('slow', q.file));
  await page.evaluate(() => {
    const w = window as unknown as W;
    Object.assign(w, { t0: NaN, firstReport: null, listedAt: null, doneAt: null });
    const since = () => performance.now() - w.t0;
    const status = document.querySelector('[data-testid=status]')!;
    const bar = document.querySelector('progress')!;
    const counter = document.querySelector('[data-testid=result-count]')!;
    document.querySelector('#url-form button')!.addEventListener('click', () => (w.t0 = performance.now()), { capture: true });
    new MutationObserver(() => {
      w.firstReport ??= { at: since(), value: bar.value, info: !document.querySelector<HTMLElement>('#file-info-view')!.hidden };
    }).observe(bar, { attributes: true, attributeFilter: ['value'] });
    new MutationObserver(() => {
      if (Number(counter.textContent) > 0) w.listedAt ??= since();
    }).observe(counter, { childList: true, characterData: true, subtree: true });
    new MutationObserver(() => {
      if (status.textContent === 'done') w.doneAt ??= since();
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('#url-form button').click();
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(count(page)).toHaveText(String(expectedAnswer(q).count));
  const { firstReport, listedAt, doneAt } = await page.evaluate(() => {
    const { firstReport, listedAt, doneAt } = window as unknown as W;
    return { firstReport, listedAt, doneAt };
  });
  expect(firstReport!.at).toBeGreaterThanOrEqual(QUIET_START_MS);
  expect(firstReport!.value).toBeLessThan(1); // while reading
  expect(firstReport!.info).toBe(true); // the header's file info in the same frame
  expect(listedAt!).toBeLessThan(doneAt!);
});

test('cancelling mid-file stops the query and the transfer, keeps what it found, and the next one runs clean', async ({ page }) => {
  // Every building of the 110 MB file over a slow link (2 MB/s, a read of ~55 s): a cancel as
  // soon as the first matches show always lands mid-file, however fast the host decodes.
  const token = randomUUID();
  const sent = async () => (await served(token)).bytes;
  await page.goto('/?q=building');
  await page.locator('html[data-ready]').waitFor({ state: 'attached' });
  await page.locator('#url-form input').fill(url('slow', 'malta-x20-synthetic.osm.pbf', token));
  await page.locator('#url-form button').click();
  await expect(count(page)).not.toHaveText('0', { timeout: 30_000 });
  await expect(page.locator('#stats')).toContainText('blobs decoded');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(status(page)).toHaveText('cancelled');
  // What was found before the stop stays, counted, exportable; nothing more comes after it,
  // on the page or over the network.
  const found = Number(await count(page).textContent());
  expect(found).toBeGreaterThan(0);
  await expect(page.getByTestId('export-geojson')).toBeEnabled();
  const cancelledAt = (await page.locator('#stats').textContent())!;
  const sentAtCancel = await sent();
  await page.waitForTimeout(1500);
  await expect(count(page)).toHaveText(String(found));
  await expect(page.locator('#stats')).toHaveText(cancelledAt);
  expect(await sent(), 'bytes sent after the cancel').toBeLessThanOrEqual(sentAtCancel + (1 << 20));
  const read = /([\d.]+) \/ 109\.7 MB read/.exec(cancelledAt);
  expect(read, cancelledAt).not.toBeNull();
  expect(Number(read![1])).toBeLessThan(50); // it really stopped mid-file
  await page.getByLabel('Query', { exact: true }).fill('amenity=cafe');
  await page.locator('select[name=place]').selectOption('circle');
  await page.getByLabel('Centre (lat,lon)').fill('35.8989,14.5146');
  await page.getByLabel('Radius (m)').fill('1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('43');
});

test('a file that changes on the server mid-read stops with a clear error', async ({ page }) => {
  const q = SMALL_QUERIES.find((x) => x.file === 'malta.osm.pbf')!;
  await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url('change', q.file))}`);
  await expect(status(page)).toHaveText(/^error: .*changed on the server while it was being read/, { timeout: 60_000 });
});

test('where CORS allows Range but not If-Range, a file that changes mid-read still stops with the error', async ({ page }) => {
  const q = SMALL_QUERIES.find((x) => x.file === 'malta.osm.pbf')!;
  await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url('range-only-change', q.file))}`);
  await expect(status(page)).toHaveText(/^error: .*changed on the server while it was being read \(ETag or Last-Modified differs\)/, { timeout: 60_000 });
});

test('a server without CORS headers, and a missing file, give messages that say what to fix', async ({ page }) => {
  const q = SMALL_QUERIES[0];
  await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url('no-cors', q.file))}`);
  await expect(status(page)).toHaveText(/^error: could not reach .*Access-Control-Allow-Origin.*Access-Control-Expose-Headers: Content-Range/, { timeout: 60_000 });
  await page.goto(`/${querySearch(q)}&src=${encodeURIComponent(url('clean', 'no-such-file.osm.pbf'))}`);
  await expect(status(page)).toHaveText(/^error: .*HTTP 404 .*no file at that address/);
});

test('a copied link, opened in a new page, reruns the query with the same answer', async ({ page, context }) => {
  const q = SMALL_QUERIES.find((x) => x.q === 'amenity=parking')!;
  await page.goto(`/${querySearch(q)}`);
  await page.getByLabel('…or a URL').fill(url('clean', q.file));
  await page.getByRole('button', { name: 'Open URL' }).click();
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('40');
  const other = await openCopiedLink(page, context, 'src=');
  await expect(other.getByTestId('status')).toHaveText('done');
  await expect(other.getByTestId('result-count')).toHaveText('40');
  expect(await listedIds(other)).toEqual(await listedIds(page));
});

test('a link made from a local file names the file and runs once it is opened', async ({ page, context }) => {
  await page.goto('/?q=shop&near=60.1699,24.9384&radius=1000');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  const other = await openCopiedLink(page, context, 'file=helsinki.osm.pbf');
  await expect(other.getByTestId('source-name')).toContainText('made for the file helsinki.osm.pbf');
  await expect(other.getByLabel('Query', { exact: true })).toHaveValue('shop');
  await other.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
  await expect(other.getByTestId('status')).toHaveText('done');
  await expect(other.getByTestId('result-count')).toHaveText('501');
});

test('a link to another origin asks once per host before anything is sent there', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL }); // no remembered host
  const page = await context.newPage();
  const q = SMALL_QUERIES.find((x) => x.file === 'malta.osm.pbf')!;
  const token = randomUUID();
  const link = `/${querySearch(q)}&src=${encodeURIComponent(url('clean', q.file, token))}`;
  const sent = async () => (await served(token)).requests;
  const dialog = page.getByTestId('confirm-download');
  await page.goto(link);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`a file from ${new URL(server.origin).host}`);
  expect(await sent(), 'requests to the host before an answer').toBe(0);
  await dialog.locator('button[value=no]').click();
  await expect(status(page)).toHaveText('cancelled');
  expect(await sent(), 'requests to the host after a no').toBe(0);
  // A no is not remembered; a yes is, for every file on that host.
  await page.goto(link);
  await dialog.locator('button[value=yes]').click();
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(count(page)).toHaveText(String(expectedAnswer(q).count));
  const helsinki = SMALL_QUERIES.find((x) => x.file === 'helsinki.osm.pbf')!;
  await page.goto(`/${querySearch(helsinki)}&src=${encodeURIComponent(url('clean', helsinki.file))}`);
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(count(page)).toHaveText(String(expectedAnswer(helsinki).count));
  // This origin's own files never ask.
  await page.goto('/?src=/sample/helsinki.osm.pbf&q=amenity=cafe&near=60.1699,24.9384&radius=1000');
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(dialog).toBeHidden();
  await context.close();
});

test('a link to a file of unknown size on another origin asks first', async ({ page }) => {
  const unknown = url('no-range-no-length', 'helsinki.osm.pbf');
  await page.goto(`/?q=shop&near=60.1699,24.9384&radius=1000&src=${encodeURIComponent(unknown)}`);
  const dialog = page.getByTestId('confirm-download');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('a file of unknown size');
  await dialog.locator('button[value=yes]').click();
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('501');
});

test('a link to over 100 MB on another origin asks first, naming the host and size', async ({ page }) => {
  const big = url('clean', 'malta-x20-synthetic.osm.pbf');
  await page.goto(`/?q=amenity=cafe&near=36.8989,15.7146&radius=1000&src=${encodeURIComponent(big)}`);
  const dialog = page.getByTestId('confirm-download');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('110 MB');
  await expect(dialog).toContainText(new URL(server.origin).host);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(status(page)).toHaveText('cancelled');
  await expect(page.locator('#stats')).not.toContainText('blobs decoded');
  await page.reload();
  await page.getByTestId('confirm-download').getByRole('button', { name: 'Download' }).click();
  await expect(status(page)).toHaveText('done', { timeout: 120_000 });
  await expect(count(page)).toHaveText('43');
});
