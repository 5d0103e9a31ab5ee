/**
 * The page: wires the file picker, drag-and-drop, the query form and the URL to the query
 * worker, and draws what it sends: map changes, the virtualized list and the counters. It
 * never touches the file's bytes.
 */
import './style.css';
import { QueryClient, sourceKey, type SourceSpec } from './query-client';
import type { Match, Query } from '../workers/types';
import { framedByAnotherSite, linkProblem, needsNoQuestion, rememberHost } from './known-hosts';
import { describeQuery } from '../workers/common/query-text';
import { areaPolygon, bboxesMeet, partsPolygon, polygonBounds } from './geometry';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { PlaceField } from './place-field';
import { download } from './export';
import { FileInfoView } from './file-info';
import { MapView } from './map-view';
import { loadOnlineStyle, styleHosts } from './online-basemap';
import type { StyleSpecification } from 'maplibre-gl';
import { ProgressView } from './progress-view';
import { QueryForm } from './query-form';
import { ResultList } from './result-list';
import { AnswerPane } from './answer-pane';
import { refine, TagStatsView } from './tag-stats';
import { CentreTool } from './centre-tool';
import { StyleByKey } from './style-by-key';
import { readUrl, SAMPLE_URL, toQuery, writeUrl, type LinkContext } from './url-state';
import { watchForUpdates } from './updates';
import { gpuWarmedUp } from './gpu-warm-up';
import { holdEarlyActions } from './early-actions';
import { RunElsewhere } from './run-elsewhere';

/** The person said no to a question (or could not be asked). */
class RefusedError extends Error {}

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

const form = new QueryForm($<HTMLFormElement>('#query-form'));
const progress = new ProgressView(document.body);
const fileInfo = new FileInfoView($('#file-info-view'));
/** The bundled sample (Use sample), served beside the page. */
const sampleUrl = new URL(SAMPLE_URL, document.baseURI);
// The query worker warms the decoder up on the bundled sample while the page waits for a file.
const client = new QueryClient(undefined, sampleUrl.href);

// An online basemap, when the URL asks for one and the person allows its hosts; the page starts
// without it if it cannot load.
let basemapUrl = readUrl(location.search).basemap ?? null;
let onlineStyle: StyleSpecification | null = null;
/** What the basemap note says before any query's own note. */
let basemapNote = '';
if (basemapUrl) {
  $<HTMLInputElement>('#basemap-form input[name=basemap]').value = basemapUrl;
  try {
    onlineStyle = await allowedOnlineStyle(basemapUrl);
    basemapNote = `basemap: online, from ${new URL(basemapUrl, location.href).host}`;
  } catch (e) {
    basemapNote = `online basemap ${e instanceof RefusedError ? 'not used' : 'unavailable'} (${(e as Error).message}): drawn from the file instead · `;
  }
  // Links made from now on carry the basemap only when it was allowed and loaded.
  if (!onlineStyle) {
    basemapUrl = null;
    const params = new URLSearchParams(location.search);
    params.delete('basemap');
    history.replaceState(null, '', `?${params}`);
  }
  progress.setBasemapNote(basemapNote);
}
client.drawContext = onlineStyle === null;
// The map's WebGL set-up waits for the GPU process to have done its own off this thread; what
// a person does meanwhile is done once the page is wired (below).
const doEarlyActions = holdEarlyActions();
// The form shows the link's query at once; what a person types in it meanwhile is kept.
form.state = readUrl(location.search).state;
const formAtStart = JSON.stringify(form.state);
await gpuWarmedUp();
const centreTool = new CentreTool($<HTMLInputElement>('input[name=near]'), $<HTMLButtonElement>('#pick-centre'), $<HTMLButtonElement>('#undo-centre'), (lat, lon) => form.setCentre(lat, lon), () => previewArea());
const mapView = new MapView(
  $('#map'),
  (lat, lon) => {
    // A click sets a point only with a tool on: never as a side effect (closing a popup, say).
    if (placeField.drawing) placeField.addVertex(lat, lon);
    else if (centreTool.picking) centreTool.pick(lat, lon);
    else return;
    previewArea();
  },
  (type, id) => {
    void openPopup(type, id);
    void selectMatch({ type, id }, true);
  },
  onlineStyle,
);
/**
 * Makes match `m` the selected one, on the map and in the table; `scroll`: the table scrolls
 * to its row (a click on the map), which the filter may have left out.
 */
async function selectMatch(m: Pick<Match, 'type' | 'id'>, scroll: boolean): Promise<void> {
  void mapView.select(m);
  list.select(m);
  if (!scroll) return;
  const row = await client.rowOf(m.type, m.id);
  if (row >= 0) list.scrollToRow(row);
}
/**
 * Opens the popup of match `type`/`id`, cut to a popup's bounds; its Show all button (when
 * something was cut) opens it again whole.
 */
async function openPopup(type: Match['type'], id: number, whole = false): Promise<void> {
  const m = await client.get(type, id, whole);
  if (m) mapView.showPopup(m, () => void openPopup(type, id, true));
}
/** How long typing in the table's filter pauses before the rows are filtered (ms). */
const FILTER_DELAY_MS = 150;
/** Runs going on, and when one last started or ended (ms, `performance.now`). */
let runsGoing = 0;
/** Runs started on this page: a run that waited finds out whether a newer one began meanwhile. */
let runsStarted = 0;
let lastActivity = 0;
// `<html data-ready>` once the map is drawn, its shaders compiled and the decoder warmed up:
// what a person sees as a loaded page (the benchmark drops its file then).
const pageReady = Promise.all([mapView.warmedUp, client.ready]);
void pageReady.then(() => (document.documentElement.dataset.ready = ''));
// The MapLibre map, for scripts and tests (e.g. `queryRenderedFeatures`); the page never reads it.
(window as unknown as { pbfExplorerMap: unknown }).pbfExplorerMap = mapView.map;
const list = new ResultList(
  $('#result-scroll'),
  $('#result-header'),
  $<HTMLOListElement>('#result-list'),
  (m: Match) => {
    mapView.flyTo(m);
    void openPopup(m.type, m.id);
    void selectMatch(m, false);
  },
  async (order) => void (await client.order(order.column, order.descending)),
  $('#column-chooser .column-choices'),
);
const pane = new AnswerPane($('#results'), $('#pane-resizer'), $<HTMLButtonElement>('#pane-toggle'));
const filterBox = $<HTMLInputElement>('#result-filter');
const filterCount = $('#filter-count');
let filterTimer: ReturnType<typeof setTimeout> | undefined;
/** How many matches the answer has (the table shows them all, or what the filter keeps). */
let matchTotal = 0;
/**
 * Shows `total` matches in the table: all of them, or as many as the filter keeps; `refilter`:
 * the filter's text changed (the rows are shown from the top, and an emptied filter leaves the
 * query worker too).
 */
async function showRows(total: number, refilter = false): Promise<void> {
  matchTotal = total;
  pane.setCount(total);
  const text = filterBox.value.trim();
  if (!text) {
    if (refilter) list.refilter(await client.filter(''));
    else list.setCount(total);
    if (filterCount.textContent) filterCount.textContent = '';
    return;
  }
  const rows = await client.filter(text);
  list.refilter(rows);
  filterCount.textContent = `${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`;
}
filterBox.addEventListener('input', () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => void showRows(matchTotal, true), FILTER_DELAY_MS);
});
const tagStats = new TagStatsView(
  $('#tag-stats'),
  (key) => client.stats(key),
  (condition, exclude) => {
    const state = form.state;
    form.state = { ...state, q: refine(state.q, condition, exclude) };
    submit(true);
  },
);
const fileInput = $<HTMLInputElement>('input[type=file]');
const cancelButton = $<HTMLButtonElement>('#cancel');
const exportButton = $<HTMLButtonElement>('#export');
const csvButton = $<HTMLButtonElement>('#export-csv');
const parquetButton = $<HTMLButtonElement>('#export-geoparquet');
const runElsewhere = new RunElsewhere($<HTMLDetailsElement>('#run-elsewhere'), client);
const saveIndexButton = $<HTMLButtonElement>('#save-index');
const zoomButton = $<HTMLButtonElement>('#zoom-to-data');
const styleByKey = new StyleByKey($<HTMLInputElement>('#style-key'), $('#style-legend'), (key) => client.styleClasses(key), (features) => mapView.setStyleClasses(features));
$('#style-key').addEventListener('change', () => {
  void styleByKey.apply();
  const search = writeUrl(readUrl(location.search).state, linkContext());
  if (search !== location.search) history.replaceState(null, '', search);
});
/** The last answer's bbox of match positions `[w, s, e, n]` (degrees), for "Zoom to data". */
let answerBounds: number[] | null = null;
zoomButton.addEventListener('click', () => answerBounds && mapView.fit(answerBounds as [number, number, number, number]));
/** The last run's file name, for the saved index's name. */
let runFileName = '';

/** The file being queried; its URL when it came from one, else its name (for links). */
let source: SourceSpec | null = null;
let sourceUrl: string | null = null;
let sourceFile: string | null = null;
/** The file (`sourceKey`) whose file info the page shows, if any. */
let infoOf: string | null = null;
/** The file (`sourceKey`) whose header bbox the map shows, if any. */
let headerBboxOf: string | null = null;
/** Set while the page applies a link, so its map view is kept rather than fitted to the area. */
let keepMapView = false;

/** The file a link named (and its size and header timestamp, when the link gives them), until a file is opened. */
let linkFile: { name: string; size: number | null; stamp: number | null } | null = null;
/** The header timestamp the link gave for the file now opened, until its header is read (then compared). */
let linkStamp: { name: string; stamp: number } | null = null;
/** The header replication timestamp of the local file open (seconds since 1970), once its header is read. */
let sourceStamp: number | null = null;

function setSource(next: SourceSpec, url: string | null): void {
  source = next;
  sourceUrl = url;
  sourceStamp = null;
  const name = next.kind === 'file' ? next.file.name : next.url;
  sourceFile = url ? null : name;
  if (next.kind === 'url') {
    linkFile = null; // a link naming a file is answered by a URL instead: no note of it
    $('#file-note').hidden = true;
  }
  $('#source-name').textContent = `File: ${name}`;
}

/** The link context of the page as it is now. */
function linkContext(): LinkContext {
  const size = source?.kind === 'file' && sourceFile === source.file.name ? source.file.size : null;
  const stamp = size === null ? null : sourceStamp;
  return { src: sourceUrl, file: sourceFile, size, stamp, map: mapView.view(), basemap: basemapUrl, style: styleByKey.key || null };
}

/** Says so when the file opened is not the one the link was made for (another name or size); hides the note otherwise. */
function noteLinkFile(file: File): void {
  const note = $('#file-note');
  const wanted = linkFile;
  linkFile = null;
  const other = wanted && (wanted.name !== file.name || (wanted.size !== null && wanted.size !== file.size));
  note.hidden = !other;
  // Same name and size: the header's timestamp, when the link has one, is compared as it comes.
  linkStamp = wanted && !other && wanted.stamp !== null ? { name: wanted.name, stamp: wanted.stamp } : null;
  if (!wanted || !other) return;
  const bytes = (n: number | null) => (n === null ? '' : ` (${n.toLocaleString('en')} bytes)`);
  note.textContent = `This link was made for ${wanted.name}${bytes(wanted.size)}; this is ${file.name}${bytes(file.size)}: the answer is this file's.`;
}

/** Downloads over this size from another origin, started by a link, need the user's yes. */
const CONFIRM_BYTES = 100e6;

/** A question's words: text, and `{ strong }` for what comes from the link (shown as text). */
type Words = (string | { strong: string })[];

/**
 * Asks before a link reads a file from `host`: a large one from another origin (`bytes`, NaN
 * when its size is unknown), or one from a host not allowed yet (`bytes` null: its size is not
 * known before the host is contacted); or (`redirect`) before following its server's redirect to
 * an address the browser shows only once followed. True to go on.
 */
function confirmDownload(host: string, bytes: number | null, redirect = false): Promise<boolean> {
  if (redirect) return ask(['The server of this link, ', { strong: host }, ', sends the file on to another address, which the browser shows only after going there. Follow it?'], 'Follow');
  const size = bytes === null ? 'a file' : Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(0)} MB` : 'a file of unknown size';
  return ask(['This link reads ', { strong: size }, ' from ', { strong: host }, '. Download it?']);
}

/**
 * Asks before a link makes the browser contact a host it has not been allowed to (nothing is
 * sent to it before a yes, which is remembered: see known-hosts.ts). `url` is one the page
 * accepts ({@link openUrl} checked it). Null to go on, else why not.
 */
async function hostAllowed(url: string): Promise<string | null> {
  if (needsNoQuestion(url)) return null;
  const { host } = new URL(url);
  if (!(await confirmDownload(host, null))) return 'cancelled';
  rememberHost(host);
  return null;
}

/**
 * The online basemap style at `url`, once the person allowed its host and every other host its
 * style names (tiles, fonts, icons: the tiles asked for show the area looked at).
 * @throws Error saying why not (refused, not http(s), unreachable, not a style).
 */
async function allowedOnlineStyle(url: string): Promise<StyleSpecification> {
  const problem = linkProblem(url);
  if (problem) throw new RefusedError(problem);
  const { host } = new URL(url, location.href);
  const allow = async (hosts: string[], words: Words) => {
    const unknown = hosts.filter((h) => !needsNoQuestion(`${location.protocol}//${h}/`));
    if (unknown.length === 0) return;
    if (!(await ask(words, 'Use it'))) throw new RefusedError(`you did not allow ${unknown.join(', ')}`);
    unknown.forEach(rememberHost);
  };
  await allow([host], ['This link draws the map with a basemap from ', { strong: host }, ': it sends that server the area you look at. Use it?']);
  const style = await loadOnlineStyle(url);
  const others = styleHosts(style).filter((h) => h !== host);
  await allow(others, ['The basemap from ', { strong: host }, ' also loads tiles, fonts and icons from ', { strong: others.join(', ') }, '. Use it?']);
  return style;
}

/**
 * Shows the question in `words` ("Download" or `yes` on its button); true for yes. Never asked
 * in a page another site frames (see {@link framedByAnotherSite}): false, and a note says why.
 */
async function ask(words: Words, yes = 'Download'): Promise<boolean> {
  if (framedByAnotherSite()) {
    $('#framed-note').hidden = false;
    return false;
  }
  const dialog = $<HTMLDialogElement>('#confirm-download');
  dialog.querySelector('.question')!.replaceChildren(
    ...words.map((w) => {
      if (typeof w === 'string') return w;
      const strong = document.createElement('strong');
      strong.textContent = w.strong;
      return strong;
    }),
  );
  dialog.querySelector('button[value=yes]')!.textContent = yes;
  dialog.returnValue = '';
  dialog.showModal();
  await new Promise((r) => dialog.addEventListener('close', r, { once: true }));
  return dialog.returnValue === 'yes';
}

const placeField = new PlaceField($<HTMLFormElement>('#query-form'), (text) => client.places(text), (fit) => previewArea(fit), (message) => progress.setStatus(`error: ${message}`));

/** Draws the area being typed, without running anything; `fit` frames it. */
function previewArea(fit = false): void {
  try {
    void mapView.setArea(areaPolygon(toQuery(form.state).area), fit);
  } catch {
    // incomplete input: nothing to draw yet
  }
}

/** How long a run's matches wait before the map draws them (ms; see `MapView.holdDraws`). */
const FIRST_DRAW_MS = 2000;

/**
 * Cancels any running query and runs `query` on `src`; matches stream onto the map as the
 * query worker sends them. `fromLink`: the run was started by opening a link, so a large
 * cross-origin read is confirmed first. `record` writes the query into the URL and the tab's
 * title; it is called as the run ends (not when a newer run replaced it).
 */
async function run(src: SourceSpec, query: Query, fromLink: boolean, record: () => void): Promise<void> {
  runsGoing++;
  lastActivity = performance.now();
  try {
    await runOnce(src, query, fromLink, record);
  } finally {
    runsGoing--;
    lastActivity = performance.now();
  }
}

/** How long the page must have been ready with no run before the service worker registers (ms). */
const IDLE_BEFORE_SERVICE_WORKER_MS = 3000;

/**
 * Registers the service worker once the page is ready, then idle for
 * {@link IDLE_BEFORE_SERVICE_WORKER_MS}: its install copies every asset into its cache, CPU
 * that the map's first frames, the decoder's warm-up and a query's decoders would share on a
 * small machine (`docs/decisions.md`). A page that never gets ready (no WebGL) still registers
 * it, 10 s after it started, so the app works offline all the same.
 */
async function registerServiceWorkerWhenIdle(): Promise<void> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.race([pageReady, sleep(10_000)]);
  lastActivity = Math.max(lastActivity, performance.now());
  while (runsGoing > 0 || performance.now() - lastActivity < IDLE_BEFORE_SERVICE_WORKER_MS) await sleep(500);
  watchForUpdates($('#update-banner'), $('#offline-note'));
}

/** {@link run}'s work. */
async function runOnce(src: SourceSpec, query: Query, fromLink: boolean, record: () => void): Promise<void> {
  const fit = !keepMapView;
  const name = src.kind === 'file' ? src.file.name : src.url;
  // A query the decoder refuses reads nothing: the last answer stays, the reason shows under the field.
  const mine = ++runsStarted;
  const refusal = await client.check(query);
  if (mine !== runsStarted) return; // a newer run owns the page now
  if (refusal) {
    record();
    showQueryError(`error: ${refusal}`);
    return;
  }
  form.markError(null);
  const clearAnswer = () => {
    void mapView.clearMatches();
    list.reset((start, count) => client.rows(start, count));
    tagStats.clear();
    progress.setCount(0);
    pane.setCount(0);
    // A new answer comes unfiltered: the filter of the last one goes with it.
    if (filterBox.value) filterBox.value = '';
    if (filterCount.textContent) filterCount.textContent = '';
    progress.setMapSample(1, 0);
    progress.setChanges(undefined);
    zoomButton.disabled = true;
  };
  clearAnswer();
  $('#area-note').hidden = true;
  exportButton.disabled = csvButton.disabled = parquetButton.disabled = saveIndexButton.disabled = true;
  progress.setAreaCopy('none');
  runFileName = name.split('/').pop() || 'file.osm.pbf';
  // A change view reads the file twice: as of each moment (docs/query-language.md, "What changed").
  progress.setStatus(query.from === undefined ? `reading ${name}…` : `reading ${name} as of each moment, then comparing them…`);
  cancelButton.disabled = false;
  const polygon = areaPolygon(query.area);
  void mapView.setArea(polygon, fit);
  mapView.holdDraws(FIRST_DRAW_MS);
  // Another file's bbox goes now, with the run's other map changes.
  const runFile = sourceKey(src);
  if (runFile !== headerBboxOf) {
    void mapView.setHeaderBbox(null, false);
    headerBboxOf = null;
  }
  // Nothing of another file, or of the last question's link, stays on screen.
  if (runFile !== infoOf) fileInfo.clear();
  infoOf = runFile;
  resetShare();
  progress.clearStats();
  const showHeaderBbox = (bbox: number[] | null, fit: boolean) => {
    void mapView.setHeaderBbox(bbox, fit);
    headerBboxOf = runFile;
  };
  /**
   * The header's bbox when it waits: unless the view is framed on it, it is drawn with the
   * next map change (the first matches, or the end) rather than on its own. Each map change
   * costs a whole frame, which a software renderer draws in ~80 ms of CPU taken from the decoders.
   */
  let waitingBbox: number[] | null | undefined;
  const drawWaitingBbox = () => {
    if (waitingBbox !== undefined) showHeaderBbox(waitingBbox, false);
    waitingBbox = undefined;
  };
  const refused = fromLink && src.kind === 'url' ? await hostAllowed(src.url) : null;
  if (refused) {
    record();
    mapView.releaseDraws();
    progress.setStatus(refused);
    cancelButton.disabled = true;
    return;
  }
  let areaCopyShown = false;
  const end = await client.run(src, query, {
    onFileInfo: (info) => {
      fileInfo.show(info);
      // The first word of a run (its header) brings the header bbox; a whole read's facts follow.
      if (info.header && !info.facts) {
        if (src.kind === 'file') noteHeaderStamp(info.header.replication_timestamp);
        // An area outside the file: the map shows where the file is, so the area can be moved there.
        const outside = noteAreaOutside(polygon, info.header.bbox);
        if ((polygon === null || outside) && fit) showHeaderBbox(info.header.bbox, true);
        else waitingBbox = info.header.bbox;
      }
    },
    onProgress: (p) => {
      progress.update(p);
      if (p.areaCopy !== undefined && !areaCopyShown) {
        areaCopyShown = true;
        void client.areaCopiesBytes().then((bytes) => progress.setAreaCopy('used', 0, bytes));
      }
    },
    onAreaCopy: (state, share, bytes, message) => progress.setAreaCopy(state, share, bytes, message),
    onChanges: (changes, count, mapSample) => {
      drawWaitingBbox();
      void mapView.applyChanges(changes);
      progress.setCount(count);
      progress.setMapSample(mapSample, count);
      void showRows(count);
    },
    onOutline: (relation, parts) => {
      if (parts) void mapView.setArea(partsPolygon(parts), fit);
      else progress.setStatus(`reading ${name}: the outline of relation ${relation} first, then the matches inside it…`);
    },
    onPlaces: (count) => placeField.setPlaceCount(count),
    onIndexMismatch: (message) => {
      clearAnswer();
      progress.setStatus(`reading ${name} again, whole: ${message}…`);
    },
    onConfirm: confirmDownload,
    onContext: (features, note, drawing) => {
      if (!drawing) void mapView.setContext(features);
      progress.setBasemapNote(basemapNote + (note ?? `basemap: ${features?.features.length ?? 0} roads, buildings, water and green areas drawn from the file`));
    },
  }, fromLink ? CONFIRM_BYTES : null);
  if (end.replaced) return; // a newer run owns the page now
  mapView.releaseDraws();
  drawWaitingBbox();
  // What was found before a failure stays on the map and in the list.
  progress.setCount(end.count);
  progress.setChanges(end.changes);
  answerBounds = end.bounds ?? null;
  zoomButton.disabled = answerBounds === null;
  // A whole-file answer has no area to frame: the first one after opening a file frames its data.
  if (answerBounds && fit && query.area === 'everywhere') mapView.fit(answerBounds as [number, number, number, number]);
  void showRows(end.count);
  exportButton.disabled = csvButton.disabled = parquetButton.disabled = end.count === 0;
  saveIndexButton.disabled = !end.blobIndex;
  if (end.status === 'done') void tagStats.show().then((stats) => list.setColumns(stats.columns, end.changes !== undefined));
  if (end.status === 'done') runElsewhere.show(query, name);
  if (styleByKey.key) void styleByKey.apply();
  record();
  progress.setStatus(end.status === 'error' ? `error: ${end.message}` : end.status);
  cancelButton.disabled = true;
}

/**
 * Shows why a query was refused, as the status and under the query field; a syntax error
 * ("syntax error at column N") also marks its spot in the field.
 */
function showQueryError(message: string): void {
  progress.setStatus(message);
  const column = /syntax error at column (\d+)/.exec(message)?.[1];
  form.markError(column ? Number(column) : null, message);
}

/** Records the running query in the URL and the title as it ends; null when no run is going. */
let recordRun: (() => void) | null = null;

/** Runs the form's query on the current file, and records it in the URL once the run ends. */
function submit(push: boolean, fromLink = false): void {
  let query: Query;
  try {
    query = toQuery(form.state);
  } catch (e) {
    showQueryError(`error: ${(e as Error).message}`);
    return;
  }
  const state = form.state;
  // The URL (with the map view as the run left it) and the tab's title change as the run ends:
  // the browser redraws its toolbar for a new URL and its tab for a new title, each a frame of
  // its own, which a software renderer draws in ~60 ms of CPU taken from the decoders
  // (`docs/decisions.md`).
  const record = () => {
    const search = writeUrl(state, linkContext());
    if (search !== location.search) history[push ? 'pushState' : 'replaceState'](null, '', search);
    document.title = `${describeQuery(query)} — pbf-explorer`;
    if (recordRun === record) recordRun = null;
  };
  if (!source) {
    record();
    progress.setStatus('choose a .osm.pbf file (or the sample) to run the query');
    void mapView.setArea(areaPolygon(query.area), !keepMapView);
    return;
  }
  recordRun = record;
  void run(source, query, fromLink, record);
}

function openFile(file: File): void {
  noteLinkFile(file);
  setSource({ kind: 'file', file }, null);
  submit(false);
}

$<HTMLFormElement>('#query-form').addEventListener('submit', (e) => {
  e.preventDefault();
  submit(true);
});
$<HTMLFormElement>('#query-form').addEventListener('input', () => previewArea());
cancelButton.addEventListener('click', () => {
  // The run ends once the worker has sent what it found before the stop (a moment, or the
  // end of a long step it was in).
  cancelButton.disabled = true;
  progress.setStatus('cancelling…');
  client.cancel();
});
/** Downloads what `make` gives (nothing for null) as `name`; a failure is shown in the status line. */
async function save(make: () => Promise<Blob | null>, name: () => string): Promise<void> {
  try {
    const blob = await make();
    if (blob) download(blob, name());
  } catch (e) {
    progress.setStatus(`error: ${(e as Error).message ?? e}`);
  }
}
exportButton.addEventListener('click', () => void save(() => client.exportFile('geojson'), () => 'pbf-explorer-matches.geojson'));
csvButton.addEventListener('click', () => void save(() => client.exportFile('csv'), () => 'pbf-explorer-matches.csv'));
parquetButton.addEventListener('click', () => void save(() => client.exportFile('geoparquet'), () => 'pbf-explorer-matches.parquet'));
/** The "Keep area copies" setting, remembered in this browser (`localStorage`), on unless turned off. */
const AREA_COPIES_SETTING = 'pbf-explorer.area-copies';
const keepAreaCopies = $<HTMLInputElement>('#keep-area-copies');
keepAreaCopies.checked = client.areaCopies = localStorage.getItem(AREA_COPIES_SETTING) !== 'off';
keepAreaCopies.addEventListener('change', () => {
  client.areaCopies = keepAreaCopies.checked;
  localStorage.setItem(AREA_COPIES_SETTING, keepAreaCopies.checked ? 'on' : 'off');
});
$('#remove-area-copies').addEventListener('click', async () => {
  const left = await client.areaCopiesBytes(true);
  progress.setAreaCopy(left > 0 ? 'kept' : 'none', 1, left);
});
saveIndexButton.addEventListener('click', () => void save(() => client.blobIndexFile(), () => `${runFileName}.idx`));
$('#use-sample').addEventListener('click', () => {
  setSource({ kind: 'url', url: sampleUrl.href }, sampleUrl.pathname);
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
  // A GeoJSON or .poly file dropped is a polygon area; anything else, the file to read.
  if (file && /\.(geojson|json|poly)$/i.test(file.name)) void placeField.loadPolygonFile(file);
  else if (file) openFile(file);
});

/**
 * Notes the header replication timestamp of the file open (seconds since 1970, or null), and
 * says so when the link it was opened from gave another: same name and size, other data.
 */
function noteHeaderStamp(stamp: number | null): void {
  sourceStamp = stamp;
  const wanted = linkStamp;
  linkStamp = null;
  if (!wanted || wanted.stamp === stamp) return;
  const when = (t: number | null) => (t === null ? 'no date' : new Date(t * 1000).toISOString().replace('.000Z', 'Z'));
  const note = $('#file-note');
  note.textContent = `This link was made for ${wanted.name} with data of ${when(wanted.stamp)}; this file's data is of ${when(stamp)}: the answer is this file's.`;
  note.hidden = false;
}

/**
 * Applies the URL: fills the form, restores the map view and, when it names a source, runs the
 * query. A link made from a local file names the file and asks for it.
 */
function applyUrl(): void {
  const { state, src, file, size, stamp, map, style, hasQuery } = readUrl(location.search);
  styleByKey.key = style ?? '';
  form.state = state;
  keepMapView = map !== null;
  if (map) mapView.jumpTo(map);
  // A link without a map view shows its area at once: the map is ready when the file comes.
  previewArea(!map);
  const sourceName = source?.kind === 'file' ? source.file.name : null;
  if (src) openUrl(src, false);
  else if (file && sourceName !== file) {
    sourceFile = file;
    linkFile = { name: file, size: size ?? null, stamp: stamp ?? null };
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
  if (input.value.trim()) openUrl(input.value.trim(), true);
});

/**
 * Reads the file at `url` (from a link, or typed: `typed`), unless the page refuses such an
 * address ({@link linkProblem}): then the status says why, without repeating it.
 */
function openUrl(url: string, typed: boolean): void {
  const problem = linkProblem(url);
  if (problem) {
    $('#source-name').textContent = 'This address cannot be read.';
    progress.setStatus(`error: ${problem}`);
    return;
  }
  setSource({ kind: 'url', url: new URL(url, location.href).href }, url);
  submit(typed, !typed);
}

// The map view follows into the URL (without adding history entries), with the query the URL
// holds: a query typed and not run yet is not the link's, and would make its run's entry a no-op.
mapView.map.on('moveend', () => {
  if (keepMapView || recordRun) return; // a run writes the view as it ends
  const search = writeUrl(readUrl(location.search).state, linkContext());
  if (search !== location.search) history.replaceState(null, '', search);
});

// Settings: a new online basemap (or none) applies on reload, the rest of the link kept.
$<HTMLFormElement>('#basemap-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = ($<HTMLInputElement>('#basemap-form input[name=basemap]').value ?? '').trim();
  const params = new URLSearchParams(location.search);
  // Chosen here, by the person: its host needs no question (the hosts its style names still do).
  if (url && !linkProblem(url)) rememberHost(new URL(url, location.href).host);
  if (url) params.set('basemap', url);
  else params.delete('basemap');
  location.search = params.toString();
});

/**
 * Says so, as the file's header comes, when the query's area (`polygon`) does not meet the bbox
 * its header gives (`[w, s, e, n]`, degrees): nothing in the file can match there. True when it does not.
 */
function noteAreaOutside(polygon: Feature<Polygon | MultiPolygon> | null, bbox: number[] | null): boolean {
  const note = $('#area-note');
  note.hidden = !polygon || !bbox || bboxesMeet(polygonBounds(polygon), bbox);
  if (note.hidden || !bbox) return false;
  const [w, s, e, n] = bbox.map((v) => v.toFixed(3));
  note.textContent = `The query's area lies outside this file (its bbox is ${w},${s},${e},${n}, framed on the map): nothing in it can match. Move the area onto the file.`;
  return true;
}

/** Hides the copied link and its note: they were of the last question. */
function resetShare(): void {
  $<HTMLInputElement>('#share-link').hidden = true;
  if ($('#copy-link').textContent !== 'Copy link') $('#copy-link').textContent = 'Copy link';
}
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
// The skip link moves the focus to the query field, not the URL's hash (a popstate would apply the URL again).
$('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  $<HTMLInputElement>('input[name=q]').focus();
});
window.addEventListener('popstate', applyUrl);
const typedEarly = JSON.stringify(form.state) !== formAtStart ? form.state : null;
applyUrl();
if (typedEarly) form.state = typedEarly;
doEarlyActions();

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
void registerServiceWorkerWhenIdle();
