/**
 * The blob index in the page: the first query on a file reads it whole and builds the index;
 * the next query on the same file (after a reload too: the index is kept in the Origin Private
 * File System) reads only the blobs the index names and shows the answer of a full read. A
 * corrupt stored index, or another file under the same name, is read whole again. Saved with
 * "Save index" and put beside the file on a web server, it lets a query over HTTP fetch a
 * small part of the file (the test server counts the bytes it sent). A file grouped by place
 * (`pbf-explorer optimize`, with its index beside it) answers as the original.
 */
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';
import { DATA_DIR, FIXTURE_DIR, QUERIES, querySearch, type ListedQuery } from './data';
import { expectListedAnswer } from './list';
import { KNOWN_HOSTS_KEY } from '../../web/known-hosts';
import { lookAlike } from '../look-alike';

// These tests are of the blob index: the area copy a first question keeps (area-copy.spec.ts)
// would answer their second questions, so the setting is off here.
test.beforeEach(({ page }) => page.addInitScript(() => localStorage.setItem('pbf-explorer.area-copies', 'off')));

const listed = (file: string, expected: string) => QUERIES.find((q) => q.file === file && q.expected === expected)!;
const cafe = listed('malta.osm.pbf', 'malta.cafe-1000m.json');
const restaurants = listed('malta.osm.pbf', 'malta.restaurant-bbox.json');
const helsinki = listed('helsinki.osm.pbf', 'helsinki.cafe-1000m.json');

/** Runs listed query `q` on `file` (a path, or a named buffer) from a fresh page load. */
async function run(page: Page, q: ListedQuery, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto(`/${querySearch(q)}`);
  await page.locator('input[type=file]').setInputFiles(file);
  await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
}

/** Megabytes read and the file's size, from the progress line "X / Y MB read". */
async function megabytesRead(page: Page): Promise<[number, number]> {
  const text = (await page.locator('#stats').textContent()) ?? '';
  const m = text.match(/([\d.]+) \/ ([\d.]+) MB read/);
  expect(m, text).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

const stats = (page: Page) => page.locator('#stats');

/**
 * Waits for the page to say that the full read's index is kept (it is made after the answer
 * is shown): only then does a reload find it.
 */
const indexKept = (page: Page) => expect(stats(page)).toContainText('blob index kept for the next query');

test('the second query on a file reads only the blobs the index names, with the same answer', async ({ page }) => {
  await run(page, cafe, join(DATA_DIR, 'malta.osm.pbf'));
  await indexKept(page);
  await expectListedAnswer(page, cafe);
  const [whole, size] = await megabytesRead(page);
  expect(whole).toBe(size);

  await run(page, restaurants, join(DATA_DIR, 'malta.osm.pbf'));
  await expect(stats(page)).toContainText('only the blobs the blob index names');
  await expectListedAnswer(page, restaurants);
  // The file info still counts the whole file.
  const info = JSON.parse((await page.getByTestId('file-info').textContent())!);
  expect(info.facts.counts.nodes).toBe(JSON.parse(readFileSync(join(DATA_DIR, 'expected/malta.counts.json'), 'utf8')).nodes);
});

test('on a file larger than the area, the second query reads a small part of it', async ({ page }) => {
  // Copy 6 of the synthetic file is Malta moved by +1.2° lon, +1° lat: Malta's answers, other ids.
  const x20 = 'malta-x20-synthetic.osm.pbf';
  await run(page, QUERIES.find((q) => q.file === x20)!, join(DATA_DIR, x20));
  await indexKept(page);
  const [whole, size] = await megabytesRead(page);
  expect(whole).toBe(size);
  await run(page, { file: x20, q: 'amenity=restaurant', bbox: [15.7, 36.88, 15.73, 36.91], count: 159 }, join(DATA_DIR, x20));
  await expect(stats(page)).toContainText('only the blobs the blob index names');
  await expect(page.getByTestId('result-count')).toHaveText('159');
  const [part] = await megabytesRead(page);
  expect(part).toBeLessThan(size * 0.2); // 15 % of it: see docs/blob-index.md on this file's geography
});

test('a corrupt stored index is refused: the file is read whole and the answer is right', async ({ page }) => {
  await run(page, cafe, join(DATA_DIR, 'malta.osm.pbf'));
  await indexKept(page);
  const spoiled = await page.evaluate(async () => {
    const dir = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
      if (!name.endsWith('.idx')) continue;
      const file = await (await dir.getFileHandle(name)).getFile();
      const bytes = new Uint8Array(await file.arrayBuffer());
      bytes[bytes.length >> 1] ^= 0xff;
      const w = await (await dir.getFileHandle(name)).createWritable();
      await w.write(bytes);
      await w.close();
      names.push(name);
    }
    return names;
  });
  expect(spoiled).toHaveLength(1);
  await run(page, restaurants, join(DATA_DIR, 'malta.osm.pbf'));
  await indexKept(page); // made by a full read
  await expectListedAnswer(page, restaurants);
});

test('another file under the same name is not answered from the first one’s index', async ({ page }) => {
  await run(page, cafe, join(DATA_DIR, 'malta.osm.pbf'));
  await indexKept(page);
  await run(page, helsinki, { name: 'malta.osm.pbf', mimeType: 'application/octet-stream', buffer: readFileSync(join(DATA_DIR, 'helsinki.osm.pbf')) });
  await indexKept(page); // made by a full read
  await expectListedAnswer(page, helsinki);
});

test('Save index gives the .idx; beside the file on a server, a query over HTTP fetches a small part of it', async ({ page, browser }) => {
  const x20 = 'malta-x20-synthetic.osm.pbf';
  await run(page, QUERIES.find((q) => q.file === x20)!, join(DATA_DIR, x20));
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save index' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${x20}.idx`);
  const indexDir = join(FIXTURE_DIR, 'idx');
  mkdirSync(indexDir, { recursive: true });
  await download.saveAs(join(indexDir, `${x20}.idx`));
  const saved = readFileSync(join(indexDir, `${x20}.idx`));
  expect(saved.subarray(0, 8).toString('latin1')).toBe('PBFIDX\r\n');
  const size = statSync(join(DATA_DIR, x20)).size;
  expect(saved.length).toBeLessThan(size * 0.01);

  const server = await startFaultServer(DATA_DIR, { indexDir });
  try {
    // A fresh browser context: no index kept, only the one beside the file.
    const other = await (await browser.newContext()).newPage();
    const token = randomUUID();
    await other.goto(`/${querySearch({ file: x20, q: 'shop=bicycle', near: [36.879, 15.6775], radius: 1000 })}`);
    await other.locator('#url-form input').fill(`${server.origin}/${token}/clean/${x20}`);
    await other.locator('#url-form button').click();
    await expect(other.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    await expect(other.getByTestId('result-count')).toHaveText('2');
    await expect(other.locator('#stats')).toContainText('only the blobs the blob index names');
    // The query's own read (13 % of this file: other copies' far-away nodes lie over the area,
    // docs/blob-index.md), then with the file's identity, the index and the basemap's read of
    // the way blobs there (32 %) as the server counted them; a whole read would be 100 %.
    const [part] = await megabytesRead(other);
    expect(part * 1e6).toBeLessThan(size * 0.2);
    await expect(other.getByTestId('basemap-note')).toContainText('basemap:', { timeout: 30_000 });
    const sent = await (await fetch(`${server.origin}/${token}/bytes`)).json();
    expect(sent.bytes).toBeLessThan(size * 0.5);
  } finally {
    await server.close();
  }
});

test('a file grouped by place (pbf-explorer optimize) gives the answers of the original: dropped, and over HTTP by its index, reading a small part of it and of the index', async ({ page, browser }) => {
  // Written by scripts/test.sh: malta.osm.pbf optimized, its .idx beside it.
  const dir = join(FIXTURE_DIR, 'optimized');
  const file = join(dir, 'malta.osm.pbf');
  for (const q of [cafe, restaurants]) {
    await run(page, q, file);
    await expectListedAnswer(page, q);
  }
  const server = await startFaultServer(dir);
  try {
    const other = await (await browser.newContext()).newPage();
    const token = randomUUID();
    await other.goto(`/${querySearch(cafe)}`);
    await other.locator('#url-form input').fill(`${server.origin}/${token}/clean/malta.osm.pbf`);
    await other.locator('#url-form button').click();
    await expect(other.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    await expectListedAnswer(other, cafe);
    await expect(other.locator('#stats')).toContainText('only the blobs the blob index names');
    const [part] = await megabytesRead(other);
    expect(part * 1e6).toBeLessThan(statSync(file).size * 0.1);
    // Of the index, its head and the pages of the area came (the server counts what it sent).
    const sent = await (await fetch(`${server.origin}/${token}/bytes`)).json();
    const indexSize = statSync(`${file}.idx`).size;
    expect(sent.indexBytes).toBeGreaterThan(0);
    expect(sent.indexBytes, `index bytes sent of ${indexSize}`).toBeLessThan(indexSize * 0.5);
  } finally {
    await server.close();
  }
});

test("a look-alike file (same size and ends, a middle blob different) leaves no index that answers for the real file, from a link or opened", async ({ page, browser, baseURL }) => {
  const realPath = join(FIXTURE_DIR, 'malta.raw.osm.pbf');
  const dir = mkdtempSync(join(tmpdir(), 'lookalike-'));
  writeFileSync(join(dir, 'malta.raw.osm.pbf'), lookAlike(readFileSync(realPath)));
  const server = await startFaultServer(dir); // sirv with CORS
  const countOf = async (p: Page) => Number((await p.getByTestId('result-count').textContent())!.replace(/\D/g, ''));
  try {
    // The real file's answer, in a browser that keeps nothing of this test's.
    const fresh = await (await browser.newContext({ baseURL })).newPage();
    await fresh.goto('/?q=amenity=cafe');
    await fresh.locator('input[type=file]').setInputFiles(realPath);
    await expect(fresh.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    const real = await countOf(fresh);
    await fresh.context().close();
    // The look-alike from a link: read whole, its index kept…
    await page.addInitScript(([key, host]) => localStorage.setItem(key, JSON.stringify([host])), [KNOWN_HOSTS_KEY, new URL(server.origin).host]);
    await page.goto(`/?q=amenity=cafe&src=${encodeURIComponent(`${server.origin}/${randomUUID()}/clean/malta.raw.osm.pbf`)}`);
    await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    await indexKept(page);
    const fake = await countOf(page);
    expect(fake).toBeLessThan(real);
    // …then the real file, opened here: read whole again, and answered right.
    await page.goto('/?q=amenity=cafe');
    await page.locator('input[type=file]').setInputFiles(realPath);
    await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    expect(await countOf(page)).toBe(real);
    await expect(stats(page)).not.toContainText('only the blobs the blob index names');
    // The look-alike opened as a file (a download: another modification time), then the real one.
    await page.goto('/?q=amenity=cafe');
    await page.locator('input[type=file]').setInputFiles(join(dir, 'malta.raw.osm.pbf'));
    await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    expect(await countOf(page)).toBe(fake);
    await indexKept(page);
    await page.goto('/?q=amenity=cafe');
    await page.locator('input[type=file]').setInputFiles(realPath);
    await expect(page.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    expect(await countOf(page)).toBe(real);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true });
  }
});

test('a look-alike with the same name, size, ends and modification time is found out by its blob checksums: each is read whole again and answered right', async ({ page, browser, baseURL }) => {
  const realPath = join(FIXTURE_DIR, 'malta.raw.osm.pbf');
  const dir = mkdtempSync(join(tmpdir(), 'lookalike-'));
  const [fakePath, copyPath] = [join(dir, 'fake', 'malta.raw.osm.pbf'), join(dir, 'real', 'malta.raw.osm.pbf')];
  mkdirSync(dirname(fakePath));
  mkdirSync(dirname(copyPath));
  writeFileSync(fakePath, lookAlike(readFileSync(realPath)));
  copyFileSync(realPath, copyPath);
  const when = new Date('2026-01-02T03:04:05Z');
  for (const p of [fakePath, copyPath]) utimesSync(p, when, when);
  const countOf = async (p: Page) => Number((await p.getByTestId('result-count').textContent())!.replace(/\D/g, ''));
  const open = async (p: Page, path: string) => {
    await p.goto('/?q=amenity=cafe');
    // Noted before the page takes the file (and empties the input).
    await p.evaluate(() => document.addEventListener('change', (e) => ((window as unknown as { opened: number }).opened = (e.target as HTMLInputElement).files![0].lastModified), { capture: true }));
    await p.locator('input[type=file]').setInputFiles(path);
    await expect(p.getByTestId('status')).toHaveText('done', { timeout: 60_000 });
    // The same modification time: the two share the scope their indexes are kept under.
    expect(await p.evaluate(() => (window as unknown as { opened: number }).opened)).toBe(when.getTime());
  };
  try {
    const fresh = await (await browser.newContext({ baseURL })).newPage();
    await open(fresh, copyPath);
    const real = await countOf(fresh);
    await fresh.context().close();
    // The look-alike first: read whole, its index kept…
    await open(page, fakePath);
    await indexKept(page);
    const fake = await countOf(page);
    expect(fake).toBeLessThan(real);
    // …then the real file: its blobs do not match that index, so it is read whole, right.
    await open(page, copyPath);
    expect(await countOf(page)).toBe(real);
    await expect(stats(page)).not.toContainText('only the blobs the blob index names');
    await indexKept(page);
    // And the look-alike again, by the real file's index now kept: found out too.
    await open(page, fakePath);
    expect(await countOf(page)).toBe(fake);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
