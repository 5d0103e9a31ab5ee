/**
 * The rows of files grouped by place (issue "Cloud-optimized PBF", `docs/optimize.md`), run once
 * a bench (the 64-copy `optimize` alone takes two minutes): `optimize` on the planet-like file
 * (time, peak RSS) and on the real-data one (size against the original), then queries over HTTP
 * with 50 ms added to every request and the `.idx` beside each file, the id-sorted original and
 * the optimized file side by side: a cold 1000 m query, and a second one in the same area on
 * the same page (the bytes the server sent for each).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** 64 copies of Malta with interleaved ids, and Helsinki and Malta merged by their ids (`scripts/make-planet-like.sh`). */
const PLANET_LIKE = 'malta-x64-planet-like.osm.pbf';
const REAL = 'helsinki-malta.osm.pbf';
const optimized = (file) => file.replace(/\.osm\.pbf$/, '.optimized.osm.pbf');

const VALLETTA = { lat: 35.8989, lon: 14.5146, radius: 1000 };
/**
 * Valletta in copy 27 of the 64 (row 3, column 3 of the grid `copy_shift` places them on:
 * Malta's header-bbox centre moved to −7.5°, −22.5° in whole degrees, −43° and −37°).
 */
const VALLETTA_27 = { lat: 35.8989 - 43, lon: 14.5146 - 37, radius: 1000 };

/** Makes the bench's files when missing, and the id-sorted originals' indexes (as `pbf-explorer index` writes them). */
export function prepareLayoutFiles(root) {
  const dir = join(root, 'bench/data');
  if (![PLANET_LIKE, REAL].every((f) => existsSync(join(dir, f)))) execFileSync('bash', ['scripts/make-planet-like.sh', '64'], { cwd: root, stdio: 'inherit' });
  for (const f of [PLANET_LIKE, REAL]) {
    execFileSync('cargo', ['run', '--release', '--quiet', '--example', 'write_index', '--', join(dir, f), join(dir, `${f}.idx`)], { cwd: join(root, 'wasm'), stdio: 'inherit' });
  }
}

/**
 * Measures the rows. `timed` runs a command (wall ms, peak RSS); `browser` is a launched
 * Chromium; `origin` serves bench.html; `server` the fault server over bench/data (its indexes
 * beside the files).
 */
export async function layoutRuns({ root, timed, browser, origin, server, cores }) {
  const dir = join(root, 'bench/data');
  const cli = join(root, 'cli/pbf-explorer.mjs');
  const out = { sizes: {} };
  for (const f of [PLANET_LIKE, REAL]) {
    const run = await timed('node', [cli, 'optimize', join(dir, f), join(dir, optimized(f))]);
    delete run.stdout;
    out[`optimize_${f}`] = run;
    for (const g of [f, optimized(f)]) out.sizes[g] = { file: statSync(join(dir, g)).size, index: statSync(join(dir, `${g}.idx`)).size };
  }
  /** Runs `queries` one after the other on one fresh page over HTTP, by the index beside `file`. */
  const overHttp = async (file, queries) => {
    const token = Math.random().toString(36).slice(2);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/bench.html`);
    const results = [];
    let before = { bytes: 0, indexBytes: 0 };
    for (const q of queries) {
      const r = await page.evaluate(([n, q, url]) => window.pbfBench.run(n, q, url, true), [cores, q, `${server}/${token}/latency/${file}`]);
      const sent = await (await fetch(`${server}/${token}/bytes`)).json();
      const bytes = sent.bytes - before.bytes;
      results.push({ ms: r.ms, matches: r.matches, sentBytes: bytes, share: bytes / out.sizes[file].file, indexBytes: (sent.indexBytes ?? 0) - (before.indexBytes ?? 0) });
      before = sent;
    }
    await page.close();
    return results;
  };
  const cafe = (near) => ({ q: 'amenity=cafe', area: { circle: near } });
  const bakery = (near) => ({ q: 'shop=bakery', area: { circle: near } });
  for (const f of [REAL, optimized(REAL)]) out[`http_${f}`] = await overHttp(f, [cafe(VALLETTA), bakery(VALLETTA)]);
  for (const f of [PLANET_LIKE, optimized(PLANET_LIKE)]) out[`http_${f}`] = await overHttp(f, [cafe(VALLETTA_27), bakery(VALLETTA_27)]);
  out.local = await localRequeries(browser, origin, join(dir, PLANET_LIKE));
  for (const f of [REAL, PLANET_LIKE]) {
    const [a, b] = [out[`http_${f}`], out[`http_${optimized(f)}`]];
    a.forEach((r, i) => {
      if (r.matches !== b[i].matches) throw new Error(`${f}: ${r.matches} matches, optimized ${b[i].matches}`);
    });
  }
  return out;
}

/** Second questions timed on each side of {@link localRequeries}. */
const REQUERIES = 5;

/**
 * The planet-like file dropped in the app page, `amenity=cafe` 1000 m in copy 27's Valletta,
 * then, once that question's follow-up work is done, `shop=bakery` there {@link REQUERIES}
 * times; on one page with area copies (the default: the follow-up makes one), on another with
 * the setting off (read by the blob index alone), alternated. Each second question is timed in
 * the page, from the click on Run to `done`.
 */
export async function localRequeries(browser, origin, file) {
  const search = `?q=amenity%3Dcafe&near=${VALLETTA_27.lat},${VALLETTA_27.lon}&radius=${VALLETTA_27.radius}`;
  const open = async (copies) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    if (!copies) await page.addInitScript(() => localStorage.setItem('pbf-explorer.area-copies', 'off'));
    await page.goto(`${origin}/${search}`);
    await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 60_000 });
    const started = Date.now();
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByTestId('status').filter({ hasText: /^done$/ }).waitFor({ timeout: 600_000 });
    await page.getByTestId('basemap-note').filter({ hasText: /^basemap:/ }).waitFor({ timeout: 600_000 });
    if (copies) await page.getByTestId('area-copy-note').filter({ hasText: 'area copy kept' }).waitFor({ timeout: 600_000 });
    else await page.locator('#stats').filter({ hasText: 'blob index kept' }).waitFor({ timeout: 600_000 });
    const followUpMs = Date.now() - started;
    await page.locator('#query-form [name=q]').fill('shop=bakery');
    return { page, followUpMs, note: await page.getByTestId('area-copy-note').textContent() };
  };
  const again = (page) =>
    page.evaluate(
      () =>
        new Promise((resolve) => {
          const status = document.querySelector('[data-testid=status]');
          const t0 = performance.now();
          const seen = new MutationObserver(() => {
            if (!/^(done|error|cancelled)/.test(status.textContent)) return;
            seen.disconnect();
            resolve({ ms: performance.now() - t0, status: status.textContent, stats: document.querySelector('#stats').textContent, count: Number(document.querySelector('[data-testid=result-count]').textContent) });
          });
          seen.observe(status, { childList: true, characterData: true, subtree: true });
          document.querySelector('#run').click();
        }),
    );
  const sides = { copy: await open(true), index: await open(false) };
  const out = { copy: { followUpMs: sides.copy.followUpMs, note: sides.copy.note, runs: [] }, index: { followUpMs: sides.index.followUpMs, runs: [] } };
  for (let i = 0; i < REQUERIES; i++) {
    for (const side of ['copy', 'index']) {
      const r = await again(sides[side].page);
      if (r.status !== 'done' || r.count !== 4) throw new Error(`local re-query (${side}): ${r.status}, ${r.count} matches`);
      out[side].runs.push(r);
      await sides[side].page.waitForTimeout(2000); // its basemap's read
    }
  }
  for (const { page } of Object.values(sides)) await page.context().close();
  return out;
}

/** The table's rows for what {@link layoutRuns} measured (null: not run). */
export function layoutRows(layout) {
  if (!layout) return [];
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  const s = layout.sizes;
  const http = (f, i) => layout[`http_${f}`][i];
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  // The optimized file's share sent (its index's bytes among them, of the index's size), then the original's.
  const side = (f, i) => {
    const o = http(optimized(f), i);
    return `${pct(o.share)} sent, index ${kb(o.indexBytes)} of ${kb(s[optimized(f)].index)} (original layout ${pct(http(f, i).share)}, ${http(f, i).ms.toFixed(0)} ms)`;
  };
  const planet = layout[`optimize_${PLANET_LIKE}`];
  return [
    ['optimize, planet-like file (64 × Malta, ids interleaved; command line): s, peak RSS', (planet.ms / 1000).toFixed(0), '', `${gib(planet.rss)}; ${s[optimized(PLANET_LIKE)].file} bytes from ${s[PLANET_LIKE].file}`, '≤ 180 s, ≤ 4 GiB'],
    ['optimize, Helsinki + Malta merged by id: size against the original', '', '', `${(s[optimized(REAL)].file / s[REAL].file).toFixed(3)}× (index ${pct(s[optimized(REAL)].index / s[optimized(REAL)].file)})`, '≤ 1.35×'],
    ['  over HTTP, .idx beside, +50 ms/request: amenity=cafe 1000 m, cold', http(optimized(REAL), 0).ms.toFixed(0), '', side(REAL, 0), '≤ 10 %'],
    ['  then shop=bakery 1000 m, same page', http(optimized(REAL), 1).ms.toFixed(0), '', side(REAL, 1), '≤ 5 %'],
    ['  planet-like, optimized: amenity=cafe 1000 m, cold', http(optimized(PLANET_LIKE), 0).ms.toFixed(0), '', side(PLANET_LIKE, 0), '≤ 2 %, ≤ 2000 ms'],
    ['  then shop=bakery 1000 m, same page', http(optimized(PLANET_LIKE), 1).ms.toFixed(0), '', side(PLANET_LIKE, 1), ''],
    ...localRows(layout.local),
  ];
}

/** The rows of {@link localRequeries}: medians of the second questions on each side. */
function localRows(local) {
  if (!local) return [];
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const ms = (side) => median(local[side].runs.map((r) => r.ms));
  const read = (side) => /([\d.]+ \/ [\d.]+ MB) read/.exec(local[side].runs[0].stats)?.[1] ?? '?';
  return [
    ['planet-like file dropped locally: shop=bakery 1000 m after amenity=cafe there and its follow-up work (app page, median of 5)', ms('copy').toFixed(0), '', `from the area copy, ${read('copy')} read (${local.copy.note}; first question and follow-up ${(local.copy.followUpMs / 1000).toFixed(1)} s); by the blob index alone ${ms('index').toFixed(0)} ms, ${read('index')} read`, '≤ 500 ms'],
  ];
}
