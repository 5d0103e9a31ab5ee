#!/usr/bin/env node
/**
 * `npm run bench`: times the decoder in headless Chromium (the app's pipeline on bench.html)
 * against native and JavaScript peers, all in one run, and prints medians and ratios.
 * Also writes the figures to bench/results/<time>.json.
 *
 * Environment: BENCH_REPS (default 5), PBF_DATA_DIR (default ../shared/data),
 * CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startFaultServer } from '../tests/fault-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.PBF_DATA_DIR ?? resolve(root, '../shared/data');
const reps = Number(process.env.BENCH_REPS ?? 5);
const port = 4280; // not on the Fetch spec's bad-port list (4190 is)
const BIG = 'malta-x20-synthetic.osm.pbf';
const SMALL = 'malta.osm.pbf';
// The data README's query for each file: amenity=cafe within 1000 m (copy 6 for the synthetic file).
const QUERY = {
  [BIG]: { lat: 36.8989, lon: 15.7146, radius: 1000 },
  [SMALL]: { lat: 35.8989, lon: 14.5146, radius: 1000 },
};
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

const log = (...a) => console.error('[bench]', ...a);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const queryOf = (file) => ({ tags: [{ key: 'amenity', value: 'cafe' }], area: { circle: QUERY[file] } });

function build() {
  log('building the app (wasm-pack + vite) and the native peers (cargo --release)');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('cargo', ['build', '--release', '--example', 'bench_native'], { cwd: join(root, 'wasm'), stdio: 'inherit' });
}

function nativeRun() {
  const q = QUERY[BIG];
  const out = execFileSync(join(root, 'wasm/target/release/examples/bench_native'), [join(dataDir, BIG), q.lat, q.lon, q.radius, 'amenity=cafe'].map(String));
  return JSON.parse(out.toString());
}

async function startServer() {
  const server = spawn('node', ['tests/serve.mjs', 'dist', String(port)], { cwd: root, stdio: 'ignore', detached: true });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/bench.html`)).ok) return server;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('vite preview did not start');
}

/** Peak resident memory (VmHWM, bytes) of the browser's renderer processes: the page and its workers. */
async function rendererPeak(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  let peak = 0;
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      const m = readFileSync(`/proc/${p.id}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {}
  }
  return peak;
}

/**
 * Samples the JS heaps of the page and of every worker (DevTools protocol `Runtime.getHeapUsage`:
 * used heap plus ArrayBuffer backing stores) every 50 ms until `done` settles; returns the peak sum.
 * Workers are reached through the browser session with `Target.sendMessageToTarget`.
 */
async function sampleHeaps(cdp, done) {
  const replies = new Map();
  let nextId = 1;
  const onMessage = (e) => {
    const m = JSON.parse(e.message);
    replies.get(m.id)?.(m.result);
  };
  cdp.on('Target.receivedMessageFromTarget', onMessage);
  const sessions = new Map();
  const heapOf = async (targetId) => {
    if (!sessions.has(targetId)) sessions.set(targetId, (await cdp.send('Target.attachToTarget', { targetId, flatten: false })).sessionId);
    const id = nextId++;
    const reply = new Promise((r) => {
      replies.set(id, r);
      setTimeout(() => r(null), 1000);
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId: sessions.get(targetId), message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) });
    const u = await reply;
    return u ? u.usedSize + (u.backingStorageSize ?? 0) : 0;
  };
  let finished = false;
  done.finally(() => (finished = true)).catch(() => {});
  let peak = 0;
  while (!finished) {
    try {
      const { targetInfos } = await cdp.send('Target.getTargets');
      const targets = targetInfos.filter((t) => (t.type === 'page' && t.url.includes('bench.html')) || t.type === 'worker');
      const sizes = await Promise.all(targets.map((t) => heapOf(t.targetId).catch(() => 0)));
      peak = Math.max(peak, sizes.reduce((a, b) => a + b, 0));
      if (process.env.BENCH_DEBUG) log(targets.map((t, i) => `${t.type}:${(sizes[i] / 2 ** 20).toFixed(1)}`).join(" "));
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  cdp.off('Target.receivedMessageFromTarget', onMessage);
  return peak;
}

/** Opens bench.html with `file` on its input, in a fresh browser when `fresh` (for memory). */
async function benchPage(browser, file) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => log('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/bench.html`);
  await page.locator('input[type=file]').setInputFiles(join(dataDir, file));
  return page;
}

const launch = () => chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

async function browserRun(cores, httpOrigin) {
  const r = {};
  const browser = await launch();
  try {
    for (const file of [SMALL, BIG]) {
      const page = await benchPage(browser, file);
      const key = file === BIG ? 'big' : 'small';
      r[`scan_1_${key}`] = await page.evaluate(() => window.pbfBench.run(1, null));
      r[`scan_all_${key}`] = await page.evaluate((n) => window.pbfBench.run(n, null), cores);
      r[`query_all_${key}`] = await page.evaluate(([n, q]) => window.pbfBench.run(n, q), [cores, queryOf(file)]);
      // The same query over HTTP, 50 ms added to every request (a distant object store).
      const url = `${httpOrigin}/${Math.random().toString(36).slice(2)}/latency/${file}`;
      r[`query_http_${key}`] = await page.evaluate(([n, q, u]) => window.pbfBench.run(n, q, u), [cores, queryOf(file), url]);
      r[`js_peer_${key}`] = await page.evaluate(() => window.pbfBench.jsPeer());
      await page.close();
    }
  } finally {
    await browser.close();
  }
  // Memory: one fresh browser per file, so each peak belongs to that query alone.
  for (const file of [SMALL, BIG]) {
    const fresh = await launch();
    try {
      const page = await benchPage(fresh, file);
      const cdp = await fresh.newBrowserCDPSession();
      const run = page.evaluate(([n, q]) => window.pbfBench.run(n, q), [cores, queryOf(file)]);
      const heaps = await sampleHeaps(cdp, run);
      const key = file === BIG ? 'big' : 'small';
      r[`peak_heaps_${key}`] = heaps + (await run).wasmBytes;
      r[`peak_rss_${key}`] = await rendererPeak(cdp);
    } finally {
      await fresh.close();
    }
  }
  return r;
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}

async function main() {
  build();
  const server = await startServer();
  const faults = await startFaultServer(dataDir, { latencyMs: 50 });
  const runs = [];
  let cores = 0;
  try {
    const probe = await launch();
    const p = await probe.newPage();
    cores = await p.evaluate(() => navigator.hardwareConcurrency);
    await probe.close();
    for (let i = 0; i < reps; i++) {
      log(`repetition ${i + 1}/${reps}`);
      const native = nativeRun();
      const browser = await browserRun(cores, faults.origin);
      runs.push({ native, browser });
    }
  } finally {
    process.kill(-server.pid);
    await faults.close();
  }

  const med = (f) => median(runs.map(f));
  const bigBytes = runs[0].native.bytes;
  const smallBytes = runs[0].browser.scan_1_small.bytes;
  const mbps = (bytes, ms) => (bytes / 1e6 / (ms / 1000)).toFixed(0);
  const m = {
    wasm_scan_1: med((r) => r.browser.scan_1_big.ms),
    wasm_scan_all: med((r) => r.browser.scan_all_big.ms),
    wasm_query_all: med((r) => r.browser.query_all_big.ms),
    wasm_query_http: med((r) => r.browser.query_http_big.ms),
    wasm_query_http_small: med((r) => r.browser.query_http_small.ms),
    wasm_query_first_match: med((r) => r.browser.query_all_big.firstMatchMs ?? NaN),
    wasm_scan_1_small: med((r) => r.browser.scan_1_small.ms),
    wasm_query_all_small: med((r) => r.browser.query_all_small.ms),
    js_peer_small: med((r) => r.browser.js_peer_small.ms),
    js_peer_big: med((r) => r.browser.js_peer_big.ms),
    native_ours_scan_1: med((r) => r.native.ours_scan_1),
    native_ours_query_1: med((r) => r.native.ours_query_1),
    osmpbf_scan_1: med((r) => r.native.osmpbf_scan_1),
    osmpbf_scan_all: med((r) => r.native.osmpbf_scan_all),
    osmpbf_query_all: med((r) => r.native.osmpbf_query_all),
    peak_heaps_small: med((r) => r.browser.peak_heaps_small),
    peak_heaps_big: med((r) => r.browser.peak_heaps_big),
    peak_rss_small: med((r) => r.browser.peak_rss_small),
    peak_rss_big: med((r) => r.browser.peak_rss_big),
  };
  const elements = runs[0].native.elements;
  const ratio = (a, b) => (a / b).toFixed(2);
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const rows = [
    ['row', 'file', 'median ms', 'MB/s', 'Melem/s', 'ratio', 'target'],
    ['scan, Wasm, 1 worker', BIG, m.wasm_scan_1.toFixed(0), mbps(bigBytes, m.wasm_scan_1), (elements / m.wasm_scan_1 / 1e3).toFixed(1), '1.00', ''],
    [`scan, Wasm, ${cores} workers`, BIG, m.wasm_scan_all.toFixed(0), mbps(bigBytes, m.wasm_scan_all), (elements / m.wasm_scan_all / 1e3).toFixed(1), `${ratio(m.wasm_scan_1, m.wasm_scan_all)}× 1 worker`, '≥ 1.7×'],
    ['scan, tiny-osmpbf (JS), main thread', BIG, m.js_peer_big.toFixed(0), mbps(bigBytes, m.js_peer_big), (elements / m.js_peer_big / 1e3).toFixed(1), `Wasm 1w is ${ratio(m.js_peer_big, m.wasm_scan_1)}×`, '≥ 10×'],
    ['scan, native (this crate), 1 thread', BIG, m.native_ours_scan_1.toFixed(0), mbps(bigBytes, m.native_ours_scan_1), (elements / m.native_ours_scan_1 / 1e3).toFixed(1), `Wasm 1w is ${ratio(m.native_ours_scan_1, m.wasm_scan_1)}×`, ''],
    ['scan, osmpbf for_each, 1 thread', BIG, m.osmpbf_scan_1.toFixed(0), mbps(bigBytes, m.osmpbf_scan_1), (elements / m.osmpbf_scan_1 / 1e3).toFixed(1), `Wasm 1w is ${ratio(m.osmpbf_scan_1, m.wasm_scan_1)}×`, '≥ 0.8×'],
    ['scan, osmpbf par_map_reduce', BIG, m.osmpbf_scan_all.toFixed(0), mbps(bigBytes, m.osmpbf_scan_all), (elements / m.osmpbf_scan_all / 1e3).toFixed(1), `Wasm ${cores}w is ${ratio(m.osmpbf_scan_all, m.wasm_scan_all)}×`, ''],
    [`query, Wasm, ${cores} workers`, BIG, m.wasm_query_all.toFixed(0), mbps(bigBytes, m.wasm_query_all), '', `first match ${m.wasm_query_first_match.toFixed(0)} ms`, '< 1500 ms (osmar)'],
    [`query, Wasm, ${cores} workers, HTTP +50 ms/request`, BIG, m.wasm_query_http.toFixed(0), mbps(bigBytes, m.wasm_query_http), '', `${ratio(m.wasm_query_http, m.wasm_query_all)}× local`, '≤ 1.25× local'],
    ['query, native (this crate), 1 thread', BIG, m.native_ours_query_1.toFixed(0), mbps(bigBytes, m.native_ours_query_1), '', `Wasm is ${ratio(m.native_ours_query_1, m.wasm_query_all)}×`, ''],
    ['query, osmpbf 2 passes, all cores', BIG, m.osmpbf_query_all.toFixed(0), mbps(bigBytes, m.osmpbf_query_all), '', `Wasm is ${ratio(m.osmpbf_query_all, m.wasm_query_all)}×`, '≥ 1.0×'],
    ['scan, Wasm, 1 worker', SMALL, m.wasm_scan_1_small.toFixed(0), mbps(smallBytes, m.wasm_scan_1_small), '', '', ''],
    ['scan, tiny-osmpbf (JS), main thread', SMALL, m.js_peer_small.toFixed(0), mbps(smallBytes, m.js_peer_small), '', `Wasm 1w is ${ratio(m.js_peer_small, m.wasm_scan_1_small)}×`, ''],
    [`query, Wasm, ${cores} workers`, SMALL, m.wasm_query_all_small.toFixed(0), mbps(smallBytes, m.wasm_query_all_small), '', '', ''],
    [`query, Wasm, ${cores} workers, HTTP +50 ms/request`, SMALL, m.wasm_query_http_small.toFixed(0), mbps(smallBytes, m.wasm_query_http_small), '', `${ratio(m.wasm_query_http_small, m.wasm_query_all_small)}× local`, ''],
    ['peak memory (JS heaps + Wasm), query', SMALL, '', '', '', mib(m.peak_heaps_small), ''],
    ['peak memory (JS heaps + Wasm), query', BIG, '', '', '', `${mib(m.peak_heaps_big)} = ${ratio(m.peak_heaps_big, m.peak_heaps_small)}× small`, '≤ 1.2×, < 300 MB'],
    ['peak renderer RSS (all of Chromium\'s tab), query', SMALL, '', '', '', mib(m.peak_rss_small), ''],
    ['peak renderer RSS (all of Chromium\'s tab), query', BIG, '', '', '', `${mib(m.peak_rss_big)} = ${ratio(m.peak_rss_big, m.peak_rss_small)}× small`, ''],
  ];
  console.log(`\npbf-explorer benchmark: ${reps} repetitions, medians; ${cores} cores; Chromium headless\n`);
  console.log(table(rows));
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const out = join(root, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores, reps, medians: m, runs }, null, 2));
  console.log(`\nwritten: ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
