/**
 * The MapLibre map: an offline style (background and a bundled world outline, no remote
 * tiles), the file's header bbox, the query area, and the matches as one GeoJSON source that
 * only ever receives what changed (`GeoJSONSource.updateData`), never the whole answer again.
 */
import {
  LngLat,
  MapLibreMap,
  NavigationControl,
  Popup,
  ScaleControl,
  setWorkerUrl,
  type ExpressionSpecification,
  type FilterSpecification,
  type GeoJSONSource,
  type LayerSpecification,
  type StyleSpecification,
} from 'maplibre-gl';
// MapLibre 6 finds its worker beside its own script, which a bundler moves; so Vite bundles
// the worker and tells MapLibre where it went.
import maplibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import landUrl from 'world-atlas/land-50m.json?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { bboxPolygon, featuresWithin, polygonBounds } from './geometry';
import { mergeStyles } from './online-basemap';
import { drawOnceTilesLoad } from './repaint-hold';
import { popupContent } from './popup';
import { ClusterCounts } from './cluster-counts';
import { featureIdOf, matchOf } from '../workers/common/wire';
import type { Match } from '../workers/types';

setWorkerUrl(maplibreWorkerUrl);

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * What one update hands to MapLibre, in {@link featuresWithin}'s weight (2 + a feature's
 * positions): MapLibre copies the diff for its worker in JavaScript, object by object, about
 * 2.5 µs a point on this host when idle and 2–3× that while the decoders hold the CPU; a
 * polygon of 8 vertices costs as much as 4 points. So 5 000 points or ~1 500 small polygons
 * an update (`docs/decisions.md`).
 */
const MAX_UPDATE_WEIGHT = 15_000;

/**
 * Past this many matches they are clustered below zoom 13: 400 000 dots in one view make tiles
 * whose arrival blocks the page for 0.2–0.5 s at every update, and nobody can tell them apart.
 * It equals the assembler's MAX_SHAPES: larger answers come as points only (clustering takes
 * points), smaller ones with their ways' lines and areas.
 */
const CLUSTER_ABOVE = 10_000;

/**
 * Natural Earth 1:50m land (world-atlas), fetched after the map so it does not delay it. An
 * asset read with `JSON.parse`, not an imported module: a JSON module's object, and the code
 * that builds it, stay in the page's heap for its whole life (`docs/decisions.md`).
 */
async function loadLand(): Promise<FeatureCollection> {
  const topology = (await (await fetch(landUrl)).json()) as Topology;
  return feature(topology, topology.objects.land) as unknown as FeatureCollection;
}

/** The layers a click opens a popup (or a cluster) from, the topmost first. */
const CLICKABLE = ['matches', 'match-clusters', 'match-lines', 'match-area-outlines', 'match-areas'];

/** A basemap layer: the `context` source's features of some classes (see `CONTEXT_CLASSES`). */
function contextLayer(id: string, type: 'fill' | 'line', classes: string[], paint: Record<string, unknown>): LayerSpecification {
  const filter: FilterSpecification = ['in', ['get', 'class'], ['literal', classes]];
  const layout = type === 'line' ? { 'line-cap': 'round', 'line-join': 'round' } : {};
  return { id, type, source: 'context', filter, paint, layout } as LayerSpecification;
}

const width = (z12: number, z17: number) => ['interpolate', ['linear'], ['zoom'], 12, z12, 17, z17];

/**
 * The basemap drawn from the file, quiet under the matches: areas first, then lines. No line is
 * dashed: a dashed line has a program of its own, whose first link on a software renderer is one
 * 150–200 ms main-thread task (`docs/decisions.md`).
 */
const CONTEXT_LAYERS: LayerSpecification[] = [
  contextLayer('context-landuse', 'fill', ['landuse'], { 'fill-color': '#ebe6dc' }),
  contextLayer('context-green', 'fill', ['green'], { 'fill-color': '#d4e7c5' }),
  contextLayer('context-water', 'fill', ['water'], { 'fill-color': '#b7d4ea' }),
  contextLayer('context-buildings', 'fill', ['building'], { 'fill-color': '#dcd5cc', 'fill-outline-color': '#c4b8aa' }),
  contextLayer('context-waterways', 'line', ['waterway'], { 'line-color': '#9ec5e6', 'line-width': width(1, 3) }),
  contextLayer('context-paths', 'line', ['path'], { 'line-color': '#b3a894', 'line-width': width(0.5, 1.5) }),
  contextLayer('context-railways', 'line', ['railway'], { 'line-color': '#8a8a8a', 'line-width': width(1, 2) }),
  contextLayer('context-roads', 'line', ['minor-road'], { 'line-color': '#ffffff', 'line-width': width(1, 6) }),
  contextLayer('context-major-roads', 'line', ['major-road'], { 'line-color': '#f5cf8c', 'line-width': width(2, 9) }),
];

/** The basemap layers' ids (replaced by an online basemap). */
const CONTEXT_LAYER_IDS = CONTEXT_LAYERS.map((l) => l.id);

/**
 * The pixel ratio the map draws at, hidden, while it warms up (see `MapView.warmUp`), and the
 * longest it stays so (ms) should the warm-up not end (an online basemap's tiles never load).
 */
const WARM_UP_PIXEL_RATIO = 1 / 8;
const MAX_WARM_UP_MS = 4000;

function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: EMPTY, attribution: 'Natural Earth' },
      context: { type: 'geojson', data: EMPTY, attribution: '© OpenStreetMap contributors' },
      'header-bbox': { type: 'geojson', data: EMPTY },
      area: { type: 'geojson', data: EMPTY },
      matches: { type: 'geojson', data: EMPTY, attribution: '© OpenStreetMap contributors' },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#dfe9ef' } },
      // No antialiasing outline (a program of its own, linked in the land's first frame): the outline layer draws the edge.
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f4f2ec', 'fill-antialias': false } },
      // Shown a frame after the land (see `warmUp`).
      { id: 'land-outline', type: 'line', source: 'land', layout: { visibility: 'none' }, paint: { 'line-color': '#aaa392', 'line-width': 0.7 } },
      ...CONTEXT_LAYERS,
      { id: 'header-bbox', type: 'line', source: 'header-bbox', paint: { 'line-color': '#6e7781', 'line-width': 1, 'line-opacity': 0.7 } },
      { id: 'area-fill', type: 'fill', source: 'area', paint: { 'fill-color': '#1f6feb', 'fill-opacity': 0.08 } },
      { id: 'area-outline', type: 'line', source: 'area', paint: { 'line-color': '#1f6feb', 'line-width': 2 } },
      // Ways with their geometry: areas filled with an outline, the rest as lines.
      {
        id: 'match-areas',
        type: 'fill',
        source: 'matches',
        filter: ['in', ['geometry-type'], ['literal', ['Polygon', 'MultiPolygon']]],
        paint: { 'fill-color': matchColour('#d1242f'), 'fill-opacity': 0.18 },
      },
      {
        id: 'match-area-outlines',
        type: 'line',
        source: 'matches',
        filter: ['in', ['geometry-type'], ['literal', ['Polygon', 'MultiPolygon']]],
        paint: { 'line-color': matchColour('#d1242f'), 'line-width': ifSelected(4, 1.5) },
      },
      {
        id: 'match-lines',
        type: 'line',
        source: 'matches',
        filter: ['in', ['geometry-type'], ['literal', ['LineString', 'MultiLineString']]],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': matchColour('#d1242f'), 'line-width': ['interpolate', ['linear'], ['zoom'], 10, ifSelected(5, 2), 16, ifSelected(8, 4)] },
      },
      {
        // Large answers are drawn clustered below zoom 13 (see CLUSTER_ABOVE).
        id: 'match-clusters',
        type: 'circle',
        source: 'matches',
        filter: ['has', 'point_count'],
        paint: {
          'circle-radius': ['step', ['get', 'point_count'], 6, 100, 9, 1000, 12, 10000, 16],
          'circle-color': '#8250df',
          'circle-opacity': 0.55,
          'circle-stroke-color': '#ffffff',
          'circle-stroke-width': 1,
        },
      },
      {
        id: 'matches',
        type: 'circle',
        source: 'matches',
        filter: ['all', ['!', ['has', 'point_count']], ['==', ['geometry-type'], 'Point']],
        paint: {
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 4, 3, 14, 6],
          'circle-color': matchColour(['match', ['get', 'type'], 'way', '#d1242f', '#8250df']),
          'circle-stroke-color': ifSelected('#1d2329', '#ffffff'),
          'circle-stroke-width': ifSelected(3, 1.2),
        },
      },
    ],
  };
}

/** `selected` for the match picked in the table or on the map (feature state `selected`), else `other`. */
function ifSelected<T extends number | string>(selected: T, other: T): ExpressionSpecification {
  return ['case', ['boolean', ['feature-state', 'selected'], false], selected, other] as ExpressionSpecification;
}

/** A change view's colours by class (the legend's dots in style.css are the same). */
export const CHANGE_COLOURS = { created: '#1a7f37', modified: '#0969da', deleted: '#cf222e' };

/** A match's colour: its change class's in a change view, else `colour` (a colour or an expression). */
function byChange(colour: string | ExpressionSpecification): ExpressionSpecification {
  const { created, modified, deleted } = CHANGE_COLOURS;
  return ['match', ['coalesce', ['get', 'change'], ''], 'created', created, 'modified', modified, 'deleted', deleted, colour];
}

/**
 * "Colour by a key": the colours of its most frequent values in order (as many as the query
 * worker's `STYLE_TOP`), then of other values, then of matches without the key.
 */
export const STYLE_COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#c7c7c7'];

/** A match's colour: its class's when the map is coloured by a key (feature state `style`), else as {@link byChange}. */
function matchColour(colour: string | ExpressionSpecification): ExpressionSpecification {
  const byClass = STYLE_COLOURS.flatMap((c, i) => [i, c]);
  return ['match', ['coalesce', ['feature-state', 'style'], -1], ...byClass, byChange(colour)] as unknown as ExpressionSpecification;
}

export class MapView {
  readonly map: MapLibreMap;
  private loaded: Promise<void>;
  /** Resolves once the warm-up has drawn (and removed) one feature of each kind. */
  readonly warmedUp: Promise<void>;
  private popup: Popup | null = null;

  /**
   * @param onPick called with (lat, lon) in degrees when the map is clicked away from a match.
   * @param onMatch called with a match's type and id when one is clicked.
   */
  /**
   * @param online an online basemap style ({@link loadOnlineStyle}) drawn instead of the page's
   *   background, land and basemap from the file; null for the offline style alone.
   */
  constructor(
    container: HTMLElement,
    onPick: (lat: number, lon: number) => void,
    onMatch: (type: Match['type'], id: number) => void,
    online: StyleSpecification | null = null,
  ) {
    this.map = new MapLibreMap({
      container,
      style: online ? mergeStyles(online, offlineStyle(), new Set(['background', 'land', 'land-outline', ...CONTEXT_LAYER_IDS])) : offlineStyle(),
      center: [24.9384, 60.1699],
      zoom: 2,
      pixelRatio: WARM_UP_PIXEL_RATIO,
      // No symbol layers to fade in; without this MapLibre draws ~300 ms of extra frames after
      // every change, each a full software-rendered frame on machines without a GPU.
      fadeDuration: 0,
      attributionControl: { compact: false },
    });
    this.map.addControl(new NavigationControl({ showCompass: false }));
    this.map.addControl(new ScaleControl({ unit: 'metric' }));
    this.loaded = new Promise((resolve) => this.map.once('load', () => resolve()));
    void this.loaded.then(() => {
      const ids = ['land', 'context', 'header-bbox', 'area', 'matches'].filter((id) => this.map.getSource(id)?.type === 'geojson');
      drawOnceTilesLoad(this.map, Object.fromEntries(ids.map((id) => [id, this.map.getSource(id) as GeoJSONSource])));
    });
    const landDrawn = online ? null : this.drawLand();
    this.map.getCanvas().style.visibility = 'hidden';
    const revealAnyway = setTimeout(() => this.reveal(), MAX_WARM_UP_MS);
    this.warmedUp = this.warmUp(landDrawn)
      .finally(() => clearTimeout(revealAnyway))
      .then(() => this.revealDrawn());
    this.map.on('click', (e) => {
      const hit = this.map.queryRenderedFeatures(e.point, { layers: CLICKABLE })[0];
      if (hit?.properties.type && typeof hit.id === 'number') {
        const { type, id } = matchOf(hit.id);
        onMatch(type, id);
      } else if (hit) this.map.easeTo({ center: e.lngLat, zoom: this.map.getZoom() + 2 }); // a cluster
      else onPick(e.lngLat.lat, e.lngLat.lng);
    });
    new ClusterCounts(this.map, 'matches', () => this.clustered);
    for (const layer of CLICKABLE) {
      this.map.on('mouseenter', layer, () => (this.map.getCanvas().style.cursor = 'pointer'));
      this.map.on('mouseleave', layer, () => (this.map.getCanvas().style.cursor = ''));
    }
  }

  /**
   * Draws one of each kind of feature once and removes it, hidden and at
   * {@link WARM_UP_PIXEL_RATIO}, then shows the map at full resolution. WebGL links a layer's
   * program on its first draw, and MapLibre then asks for the link's result at once: the page's
   * thread waits until the GPU process has done every draw made before it in that frame. On a
   * software renderer (SwiftShader) at 1280×800 that was 100–250 ms of rasterising the
   * background and land per new program; at 1/8 of the pixels, ~10 ms. One kind a frame: all
   * of them in one frame made one task of 300–450 ms. A run that starts meanwhile shows the
   * map at once (`reveal`); `landDrawn` settles once the land is drawn (null with an online
   * basemap): its outline is shown in a frame of its own after it.
   */
  private async warmUp(landDrawn: Promise<unknown> | null): Promise<void> {
    const [area, matches, headerBbox] = await Promise.all([this.source('area'), this.source('matches'), this.source('header-bbox')]);
    // After the first camera moves (a shared URL frames its area at load): a feature out of
    // view is not drawn, and its layer's shaders would then wait for the first match.
    await this.map.once('idle');
    const c = this.map.getCenter();
    const point = (properties: Record<string, unknown>): Feature => ({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: [c.lng, c.lat] } });
    const ring: [number, number][] = [[c.lng, c.lat], [c.lng + 0.1, c.lat], [c.lng, c.lat + 0.1], [c.lng, c.lat]];
    const line: Feature = { type: 'Feature', properties: { type: 'way' }, geometry: { type: 'LineString', coordinates: ring.slice(0, 2) } };
    const polygon: Feature = { type: 'Feature', properties: { type: 'way' }, geometry: { type: 'Polygon', coordinates: [ring] } };
    const around = bboxPolygon([c.lng - 1, c.lat - 1, c.lng + 1, c.lat + 1]);
    const bboxUntouched = () => this.drawnData.get('header-bbox') === JSON.stringify(EMPTY);
    // Only sources no query has set yet; a query that starts meanwhile replaces what is drawn.
    await landDrawn;
    const steps: (() => boolean)[] = [
      () => landDrawn !== null && (this.map.setLayoutProperty('land-outline', 'visibility', 'visible'), true),
      () => !this.touched.area && (void area.setData(around), true),
      () => bboxUntouched() && (void headerBbox.setData(around), true),
    ];
    // A node, a way, a line, an area and a cluster (as the clustered source marks them: `point_count`).
    const kinds = [point({ type: 'node' }), point({ type: 'way' }), line, polygon, point({ point_count: 2 })];
    for (let n = 1; n <= kinds.length; n++) {
      steps.push(() => {
        if (this.touched.matches) return false;
        void matches.setData({ type: 'FeatureCollection', features: kinds.slice(0, n) });
        this.matchesDrawn = true;
        return true;
      });
    }
    // Each step that drew something waits for its frame (a step with nothing to draw has none).
    for (const step of steps) {
      if (this.revealed) break;
      if (step()) await this.map.once('idle');
    }
    if (!this.touched.area) void area.setData(EMPTY);
    if (bboxUntouched()) void headerBbox.setData(EMPTY);
    if (!this.touched.matches) {
      void matches.setData(EMPTY);
      this.matchesDrawn = false;
    }
    if (!this.revealed) await this.map.once('idle');
  }

  private revealed = false;

  /**
   * Shows the map at full resolution and resolves once that frame is drawn and composited (two
   * animation frames after it: the GPU process rasterises it meanwhile), so that a read started
   * then does not share the cores with it. At once when the map is shown already.
   */
  private async revealDrawn(): Promise<void> {
    if (this.revealed) return;
    this.reveal();
    await this.map.once('idle');
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  }

  /** Shows the map at the device's pixel ratio (the warm-up drew it hidden and small). */
  private reveal(): void {
    if (this.revealed) return;
    this.revealed = true;
    // null: the device's ratio again, as MapLibre documents for `setPixelRatio`.
    this.map.setPixelRatio(null as unknown as number);
    this.map.getCanvas().style.visibility = '';
  }

  /** Draws the land; resolves once it is drawn, or with null when it could not be fetched. */
  private async drawLand(): Promise<unknown> {
    try {
      const [land, source] = await Promise.all([loadLand(), this.source('land')]);
      // In a task of its own: `load` fires within the map's first frame, whose task would then
      // also hold the land's copy for MapLibre's worker, made where `setData` is called.
      await new Promise((resolve) => setTimeout(resolve));
      source.setData(land);
      return await this.map.once('idle');
    } catch {
      // Without the land (not cached, and offline) the map shows its background.
      return null;
    }
  }

  /** Sources set since load, which the warm-up must leave alone. */
  private touched = { area: false, matches: false };

  private async source(id: string): Promise<GeoJSONSource> {
    await this.loaded;
    return this.map.getSource(id) as GeoJSONSource;
  }

  /** Set while matches and the header's bbox wait to be drawn (see {@link holdDraws}). */
  private drawsHeld: { released: Promise<void>; release: () => void } | null = null;

  /**
   * Holds the drawing of matches and of the header's bbox for `ms` (a run starts), or until
   * {@link releaseDraws}: each map draw costs a software renderer (SwiftShader, 1280×800)
   * ~100 ms of CPU taken from the decoders, so a run shorter than `ms` draws its answer once,
   * at its end, and a longer one from `ms` on. The area, a framing move and the camera are not held.
   */
  holdDraws(ms: number): void {
    this.releaseDraws();
    let wake!: () => void;
    const released = new Promise<void>((resolve) => (wake = resolve));
    const timer = setTimeout(() => this.releaseDraws(), ms);
    this.drawsHeld = { released, release: () => (clearTimeout(timer), wake()) };
  }

  /** Draws what waits, now (a run ends). */
  releaseDraws(): void {
    const held = this.drawsHeld;
    this.drawsHeld = null;
    held?.release();
  }

  /** Resolves once no hold is on (a new run's hold waits too). */
  private async drawsAllowed(): Promise<void> {
    while (this.drawsHeld) await this.drawsHeld.released;
  }

  /**
   * Colours the matches by class (`features`: feature id, class, … as the query worker's
   * `StyleClasses` gives them; class `i` in {@link STYLE_COLOURS}`[i]`), or by type again (null).
   */
  async setStyleClasses(features: number[] | null): Promise<void> {
    await this.loaded;
    this.map.removeFeatureState({ source: 'matches' });
    for (let i = 0; features && i < features.length; i += 2) this.map.setFeatureState({ source: 'matches', id: features[i] }, { style: features[i + 1] });
    if (this.selected !== null) this.map.setFeatureState({ source: 'matches', id: this.selected }, { selected: true });
  }

  /** The feature id of the match drawn as selected, or null. */
  private selected: number | null = null;

  /** Draws match `type`/`id` as the selected one (a thicker, dark outline), or none (null). */
  async select(match: { type: Match['type']; id: number } | null): Promise<void> {
    await this.loaded;
    if (this.selected !== null) this.map.setFeatureState({ source: 'matches', id: this.selected }, { selected: false });
    this.selected = match ? featureIdOf(match.type, match.id) : null;
    if (this.selected !== null) this.map.setFeatureState({ source: 'matches', id: this.selected }, { selected: true });
  }

  /** Removes every drawn match (a new query starts). */
  async clearMatches(): Promise<void> {
    this.reveal();
    this.selected = null;
    this.popup?.remove();
    this.touched.matches = true;
    this.pending = { remove: [], add: [], taken: 0 };
    this.generation++;
    this.drawn = 0;
    const source = await this.source('matches');
    if (this.clustered) {
      this.clustered = false;
      void source.setClusterOptions({ cluster: false });
    }
    // Every setData redraws the map: skip it when there is nothing to remove.
    if (this.matchesDrawn) source.setData(EMPTY);
    this.matchesDrawn = false;
  }

  /** Changes received while MapLibre was still applying earlier ones. */
  private pending: { remove: number[]; add: Feature[]; taken: number } = { remove: [], add: [], taken: 0 };
  private applying = false;
  private generation = 0;
  /** Features added since the last clear, and whether they are drawn clustered. */
  private drawn = 0;
  private clustered = false;
  /** Whether the matches source may hold features (cleared by setData(EMPTY) only when it does). */
  private matchesDrawn = false;

  /**
   * Applies the query worker's changes: features to remove (by id), then features to add.
   * One update at a time goes to MapLibre's worker; what arrives meanwhile waits and goes
   * as one (MapLibre would otherwise merge queued diffs again on every call).
   */
  async applyChanges(changes: { remove: number[]; add: Feature[] }): Promise<void> {
    for (const id of changes.remove) this.pending.remove.push(id);
    for (const f of changes.add) this.pending.add.push(f);
    this.drawn += changes.add.length - changes.remove.length;
    if (this.applying) return;
    this.applying = true;
    try {
      await this.drawsAllowed();
      const source = await this.source('matches');
      while (this.pending.remove.length > 0 || this.pending.taken < this.pending.add.length) {
        if (!this.clustered && this.drawn > CLUSTER_ABOVE) {
          this.clustered = true;
          void source.setClusterOptions({ cluster: true, clusterRadius: 40, clusterMaxZoom: 12 });
        }
        const generation = this.generation;
        const { remove } = this.pending;
        const add = this.takeAdds();
        this.pending.remove = [];
        this.matchesDrawn = true;
        await source.updateData({ remove, add });
        // A task of its own for the next update: MapLibre copies it for its worker right in
        // the task that took this one's result, and the two made one long task.
        await new Promise((resolve) => setTimeout(resolve));
        if (generation !== this.generation) continue; // cleared meanwhile: pending is the new answer's
      }
    } finally {
      this.applying = false;
    }
  }

  /**
   * The next pending features to add, from the front, at most {@link MAX_UPDATE_WEIGHT}. Taken
   * by an index, not spliced off: a splice moves every feature behind, and 200 000 could wait.
   */
  private takeAdds(): Feature[] {
    const pending = this.pending;
    const start = pending.taken;
    pending.taken += featuresWithin(pending.add, MAX_UPDATE_WEIGHT, start);
    const add = pending.add.slice(start, pending.taken);
    if (pending.taken === pending.add.length) [pending.add, pending.taken] = [[], 0];
    else if (pending.taken > pending.add.length / 2) [pending.add, pending.taken] = [pending.add.slice(pending.taken), 0];
    return add;
  }

  /** Draws the basemap from the file (null removes it). */
  async setContext(features: FeatureCollection | null): Promise<void> {
    if (!features && !this.contextDrawn) return; // every setData redraws the map
    (await this.source('context')).setData(features ?? EMPTY);
    this.contextDrawn = features !== null;
  }

  private contextDrawn = false;

  /**
   * What `setUnlessDrawn` last gave each source, as JSON. The header bbox starts empty, as the
   * style has it; the area is set once at least (the warm-up draws in it).
   */
  private drawnData = new Map<string, string>([['header-bbox', JSON.stringify(EMPTY)]]);

  /** Sets a source's data unless it holds this already: every setData redraws the map. */
  private async setUnlessDrawn(id: 'area' | 'header-bbox', data: Feature | FeatureCollection): Promise<void> {
    const key = JSON.stringify(data);
    const source = await this.source(id);
    if (this.drawnData.get(id) !== key) source.setData(data);
    this.drawnData.set(id, key);
  }

  /** Draws the query area (null clears it) and, if `fit`, frames it. */
  async setArea(polygon: Feature<Polygon | MultiPolygon> | null, fit: boolean): Promise<void> {
    this.touched.area = true;
    await this.setUnlessDrawn('area', polygon ?? EMPTY);
    if (polygon && fit) this.fit(polygonBounds(polygon));
  }

  private headerBboxCalls = 0;

  /**
   * Draws the file's header bbox `[minlon, minlat, maxlon, maxlat]` (degrees; null clears it)
   * and, if `fit`, frames it.
   */
  async setHeaderBbox(bbox: number[] | null, fit: boolean): Promise<void> {
    const call = ++this.headerBboxCalls;
    if (!fit) await this.drawsAllowed();
    if (call !== this.headerBboxCalls) return; // a later call (maybe not held) decided
    await this.setUnlessDrawn('header-bbox', bbox ? bboxPolygon(bbox) : EMPTY);
    if (bbox && fit) this.fit(bbox as [number, number, number, number]);
  }

  /** Frames `[w, s, e, n]` (degrees); no-op when the view already frames it, as a move redraws the map. */
  fit([w, s, e, n]: [number, number, number, number]): void {
    const options = { padding: 40, maxZoom: 17 };
    const camera = this.map.cameraForBounds([[w, s], [e, n]], options);
    if (!camera?.center || camera.zoom === undefined) return;
    const at = this.map.getCenter();
    const to = LngLat.convert(camera.center);
    const same = Math.abs(camera.zoom - this.map.getZoom()) < 1e-6 && Math.abs(to.lng - at.lng) < 1e-9 && Math.abs(to.lat - at.lat) < 1e-9;
    if (!same) this.map.jumpTo(camera);
  }

  /** The current view, for links. */
  view(): { zoom: number; lat: number; lon: number } {
    const c = this.map.getCenter();
    return { zoom: this.map.getZoom(), lat: c.lat, lon: c.lng };
  }

  /** Moves to a view from a link. */
  jumpTo(view: { zoom: number; lat: number; lon: number }): void {
    this.map.jumpTo({ zoom: view.zoom, center: [view.lon, view.lat] });
  }

  /**
   * Opens a match's tag popup at the match, or at the view's centre for one with no location;
   * `showAll` (for a match shown cut) is its Show all button's.
   */
  showPopup(match: Match, showAll?: () => void): void {
    this.popup?.remove();
    this.popup = new Popup({ maxWidth: '340px' })
      .setLngLat(match.lon === null || match.lat === null ? this.map.getCenter() : [match.lon, match.lat])
      .setDOMContent(popupContent(match, showAll))
      .addTo(this.map);
  }

  /** Centres on a match (one with no location leaves the view as it is). */
  flyTo(match: Match): void {
    if (match.lon !== null && match.lat !== null) this.map.easeTo({ center: [match.lon, match.lat], zoom: Math.max(this.map.getZoom(), 15), duration: 300 });
  }
}
