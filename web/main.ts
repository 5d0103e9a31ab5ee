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
import { readUrl, SAMPLE_URL, toQuery, writeUrl } from './url-state';
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

/** The file being queried, and its URL when it came from one (for links). */
let source: Source | null = null;
let sourceUrl: string | null = null;
let current: { controller: AbortController; store: ResultStore } | null = null;

function setSource(next: Source, url: string | null): void {
  source = next;
  sourceUrl = url;
  $('#source-name').textContent = `File: ${next.name}`;
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

/** Cancels any running query and runs `query` on `src`; results stream onto the map. */
async function run(src: Source, query: Query): Promise<void> {
  current?.controller.abort();
  const run = { controller: new AbortController(), store: new ResultStore() };
  current = run;
  const isCurrent = () => current === run;
  render(run.store);
  progress.setStatus(`reading ${src.name}…`);
  cancelButton.disabled = false;
  const polygon = areaPolygon(query.area);
  void mapView.setArea(polygon, true);
  document.title = `${describeQuery(query)} — pbf-explorer`;
  try {
    await runQuery(src, query, pool, run.store, {
      onHeader: (h) => isCurrent() && void mapView.setHeaderBbox(h.bbox, polygon === null),
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
    progress.setStatus(e instanceof CancelledError ? 'cancelled' : `error: ${(e as Error).message ?? e}`);
  } finally {
    if (isCurrent()) cancelButton.disabled = true;
  }
}

/** Runs the form's query on the current file, and records it in the URL. */
function submit(push: boolean): void {
  let query: Query;
  try {
    query = toQuery(form.state);
  } catch (e) {
    progress.setStatus(`error: ${(e as Error).message}`);
    return;
  }
  const search = writeUrl(form.state, sourceUrl);
  if (search !== location.search) history[push ? 'pushState' : 'replaceState'](null, '', search);
  if (!source) {
    progress.setStatus('choose a .osm.pbf file (or the sample) to run the query');
    void mapView.setArea(areaPolygon(query.area), true);
    return;
  }
  void run(source, query);
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
  setSource(new FetchSource(new URL(SAMPLE_URL, document.baseURI).pathname), new URL(SAMPLE_URL, document.baseURI).pathname);
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

/** Applies the URL: fills the form and, when it names a source, runs the query. */
function applyUrl(): void {
  const { state, src, hasQuery } = readUrl(location.search);
  form.state = state;
  previewArea();
  if (src) {
    const url = new URL(src, location.href);
    setSource(new FetchSource(url.href), src);
    submit(false);
  } else if (hasQuery && source) {
    submit(false);
  }
}
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
