/**
 * The page: wires the file picker, drag-and-drop, the query form and the URL to the query
 * pipeline, and its results to the map, the list and the counters.
 */
import './style.css';
import { WorkerPool, CancelledError } from '../workers/pool';
import { runQuery } from '../workers/pipeline';
import { ResultStore } from '../workers/results';
import { FetchSource, FileSource, type Source } from '../workers/source';
import { describeQuery } from '../workers/query';
import type { Query } from '../workers/types';
import { areaPolygon } from './geometry';
import { downloadGeoJSON } from './export';
import { MapView } from './map-view';
import { ProgressView } from './progress-view';
import { QueryForm } from './query-form';
import { ResultList } from './result-list';
import { readUrl, SAMPLE_URL, toQuery, writeUrl, type LinkContext } from './url-state';
import { watchForUpdates } from './updates';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

const form = new QueryForm($<HTMLFormElement>('#query-form'));
const progress = new ProgressView($('#progress'));
const mapView = new MapView($('#map'), (lat, lon) => {
  form.setCentre(lat, lon);
  previewArea();
});
const list = new ResultList($<HTMLOListElement>('#result-list'), $('#list-note'), (m) => mapView.flyTo(m));
const pool = new WorkerPool();
const fileInput = $<HTMLInputElement>('input[type=file]');
const cancelButton = $<HTMLButtonElement>('#cancel');
const exportButton = $<HTMLButtonElement>('#export');

/** The file being queried; its URL when it came from one, else its name (for links). */
let source: Source | null = null;
let sourceUrl: string | null = null;
let sourceFile: string | null = null;
let current: { controller: AbortController; store: ResultStore } | null = null;
/** Set while the page applies a link, so its map view is kept rather than fitted to the area. */
let keepMapView = false;

function setSource(next: Source, url: string | null): void {
  source = next;
  sourceUrl = url;
  sourceFile = url ? null : next.name;
  $('#source-name').textContent = `File: ${next.name}`;
}

/** The link context of the page as it is now. */
function linkContext(): LinkContext {
  return { src: sourceUrl, file: sourceFile, map: mapView.view() };
}

/** Downloads over this size from another origin, started by a link, need the user's yes. */
const CONFIRM_BYTES = 100e6;

/** Asks before a link reads a large file from another origin; resolves true to go on. */
async function confirmDownload(src: FetchSource, signal: AbortSignal): Promise<boolean> {
  if (new URL(src.name, location.href).origin === location.origin) return true;
  await src.open(signal);
  if (!(src.size > CONFIRM_BYTES)) return true;
  const dialog = $<HTMLDialogElement>('#confirm-download');
  dialog.querySelector('.size')!.textContent = `${(src.size / 1e6).toFixed(0)} MB`;
  dialog.querySelector('.host')!.textContent = src.host;
  dialog.returnValue = '';
  dialog.showModal();
  await new Promise((r) => dialog.addEventListener('close', r, { once: true }));
  return dialog.returnValue === 'yes';
}

/** Draws the area being typed, without running anything. */
function previewArea(): void {
  try {
    void mapView.setArea(areaPolygon(toQuery(form.state).area), false);
  } catch {
    // incomplete input: nothing to draw yet
  }
}

/** Redraws at most once per animation frame, however many blobs arrive. */
let renderQueued = false;
function render(store: ResultStore): void {
  renderQueued = false;
  const matches = store.list();
  progress.setCount(matches.length);
  void mapView.setMatches(matches);
  list.render(matches);
  exportButton.disabled = matches.length === 0;
}
function scheduleRender(store: ResultStore): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => current?.store === store && render(store));
}

/**
 * Cancels any running query and runs `query` on `src`; results stream onto the map.
 * `fromLink`: the run was started by opening a link, so a large cross-origin read is confirmed first.
 */
async function run(chosen: Source, query: Query, fromLink = false): Promise<void> {
  current?.controller.abort();
  // An HTTP source is probed afresh for every run: the file may have changed since the last.
  const src = chosen instanceof FetchSource ? new FetchSource(chosen.name, chosen.readOptions) : chosen;
  const fit = !keepMapView;
  const run = { controller: new AbortController(), store: new ResultStore() };
  current = run;
  const isCurrent = () => current === run;
  render(run.store);
  progress.setStatus(`reading ${src.name}…`);
  cancelButton.disabled = false;
  const polygon = areaPolygon(query.area);
  void mapView.setArea(polygon, fit);
  document.title = `${describeQuery(query)} — pbf-explorer`;
  try {
    if (fromLink && src instanceof FetchSource && !(await confirmDownload(src, run.controller.signal))) {
      throw new CancelledError();
    }
    await runQuery(src, query, pool, run.store, {
      onHeader: (h) => isCurrent() && void mapView.setHeaderBbox(h.bbox, polygon === null && fit),
      onProgress: (p) => isCurrent() && progress.update(p),
      onResults: (store) => isCurrent() && scheduleRender(store),
    }, run.controller.signal);
    if (isCurrent()) {
      render(run.store);
      progress.setStatus('done');
    }
  } catch (e) {
    if (!isCurrent()) return;
    render(run.store); // what was found before the failure stays on the map
    const cancelled = e instanceof CancelledError || run.controller.signal.aborted;
    progress.setStatus(cancelled ? 'cancelled' : `error: ${(e as Error).message ?? e}`);
  } finally {
    if (isCurrent()) cancelButton.disabled = true;
  }
}

/** Runs the form's query on the current file, and records it in the URL. */
function submit(push: boolean, fromLink = false): void {
  let query: Query;
  try {
    query = toQuery(form.state);
  } catch (e) {
    progress.setStatus(`error: ${(e as Error).message}`);
    return;
  }
  const search = writeUrl(form.state, linkContext());
  if (search !== location.search) history[push ? 'pushState' : 'replaceState'](null, '', search);
  if (!source) {
    progress.setStatus('choose a .osm.pbf file (or the sample) to run the query');
    void mapView.setArea(areaPolygon(query.area), !keepMapView);
    return;
  }
  void run(source, query, fromLink);
}

function openFile(file: File): void {
  setSource(new FileSource(file), null);
  submit(false);
}

$<HTMLFormElement>('#query-form').addEventListener('submit', (e) => {
  e.preventDefault();
  submit(true);
});
$<HTMLFormElement>('#query-form').addEventListener('input', previewArea);
cancelButton.addEventListener('click', () => current?.controller.abort());
exportButton.addEventListener('click', () => current && downloadGeoJSON(current.store.list(), 'pbf-explorer-matches'));
$('#use-sample').addEventListener('click', () => {
  const sample = new URL(SAMPLE_URL, document.baseURI).pathname;
  setSource(new FetchSource(sample), sample);
  submit(true);
});
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) openFile(file);
  fileInput.value = ''; // so choosing the same file again reruns it
});

// Drag-and-drop anywhere on the page.
const overlay = $('#drop-overlay');
let dragDepth = 0;
window.addEventListener('dragenter', (e) => {
  if (!e.dataTransfer?.types.includes('Files')) return;
  dragDepth++;
  overlay.hidden = false;
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) overlay.hidden = true;
});
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  overlay.hidden = true;
  const file = e.dataTransfer?.files[0];
  if (file) openFile(file);
});

/**
 * Applies the URL: fills the form, restores the map view and, when it names a source, runs the
 * query. A link made from a local file names the file and asks for it.
 */
function applyUrl(): void {
  const { state, src, file, map, hasQuery } = readUrl(location.search);
  form.state = state;
  keepMapView = map !== null;
  if (map) mapView.jumpTo(map);
  previewArea();
  if (src) {
    setSource(new FetchSource(new URL(src, location.href).href), src);
    submit(false, true);
  } else if (file && source?.name !== file) {
    sourceFile = file;
    $('#source-name').textContent = `This link was made for the file ${file}: open it (or drop it here) to run the query.`;
    progress.setStatus(`open ${file} to run this query`);
  } else if (hasQuery && source) {
    submit(false);
  }
  keepMapView = false;
}

// Open a URL typed by the user (no confirmation: they asked for it).
$<HTMLFormElement>('#url-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = (e.currentTarget as HTMLFormElement).elements.namedItem('src') as HTMLInputElement;
  if (!input.value.trim()) return;
  setSource(new FetchSource(new URL(input.value.trim(), location.href).href), input.value.trim());
  submit(true);
});

// The map view follows into the URL (without adding history entries).
mapView.map.on('moveend', () => {
  if (keepMapView) return;
  const search = writeUrl(form.state, linkContext());
  if (search !== location.search) history.replaceState(null, '', search);
});

$('#copy-link').addEventListener('click', async () => {
  const link = $<HTMLInputElement>('#share-link');
  link.value = location.href;
  link.hidden = false;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $('#copy-link').textContent = 'Link copied';
  } catch {
    $('#copy-link').textContent = 'Copy the link below';
  }
});
window.addEventListener('popstate', applyUrl);
applyUrl();

// Installed as an app and launched with a .osm.pbf (manifest `file_handlers`): run the
// current query on it.
interface LaunchParams {
  files: { getFile(): Promise<File> }[];
}
const launchQueue = (window as unknown as { launchQueue?: { setConsumer(c: (p: LaunchParams) => void): void } }).launchQueue;
launchQueue?.setConsumer(async (params) => {
  const file = await params.files[0]?.getFile();
  if (file) openFile(file);
});

$('#build-id').textContent = __BUILD_ID__;
watchForUpdates($('#update-banner'), $('#offline-note'));
