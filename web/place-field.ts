/**
 * The place inputs beyond a circle and a bbox: a place of the file found by name (the query
 * worker searches the places a whole read found) — a boundary or multipolygon is the area, a
 * node with `place=*` the centre of a circle sized for its kind —, and a polygon drawn on the
 * map, typed, or loaded from a GeoJSON or `.poly` file. Both only fill the query form; the run
 * starts as any other.
 */
import { formatPoly, parsePoly, parsePolygonFile } from '../workers/common/polygon-text';
import type { Place } from '../workers/types';

/** How long typing pauses before the place names are searched (ms). */
const SEARCH_DELAY_MS = 120;

/** A place's one-line description: what it is, its admin_level, its size as mapped, its id. */
export function describePlace(p: Place): string {
  if (p.at) return [p.what, `node ${p.id}`].join(' · ');
  const parts = [p.what || p.kind, p.admin_level ? `admin_level ${p.admin_level}` : '', `${p.ways} way${p.ways === 1 ? '' : 's'}`, `relation ${p.id}`];
  return parts.filter(Boolean).join(' · ');
}

/**
 * The radius (metres) of the circle a place node gives, by its `place` value: about the extent
 * such a place has (OSM wiki, Key:place); 1000 for any other value.
 */
const PLACE_RADIUS_M: Record<string, number> = {
  country: 50_000, state: 30_000, region: 30_000, province: 30_000, county: 20_000, city: 5000, town: 3000, island: 3000,
  village: 1000, suburb: 1000, quarter: 700, neighbourhood: 500, hamlet: 300, locality: 300, isolated_dwelling: 200, farm: 200, square: 150,
};

/** The radius (metres) of the circle around place node `p` ({@link PLACE_RADIUS_M}). */
export function placeRadius(p: Place): number {
  return PLACE_RADIUS_M[p.what.replace(/^place=/, '')] ?? 1000;
}

export class PlaceField {
  /** Whether map clicks add points to the polygon. */
  drawing = false;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  /** How many places of the file the worker holds (0: none yet, the hint says why). */
  private placeCount = 0;
  private readonly name: HTMLInputElement;
  private readonly suggestions: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly drawButton: HTMLButtonElement;

  /**
   * `search` asks the query worker for places by name; `changed` is called after the form's
   * place fields changed (to draw the area); `problem` shows a message for the user.
   */
  constructor(
    private readonly form: HTMLFormElement,
    private readonly search: (text: string) => Promise<Place[]>,
    private readonly changed: (fit: boolean) => void,
    private readonly problem: (message: string) => void,
  ) {
    const q = <T extends HTMLElement>(selector: string) => form.querySelector(selector) as T;
    this.name = q('#place-name');
    this.suggestions = q('#place-suggestions');
    this.hint = q('#place-hint');
    this.drawButton = q('#draw-polygon');
    this.name.addEventListener('input', () => {
      if (this.searchTimer) clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => void this.showSuggestions(), SEARCH_DELAY_MS);
    });
    this.drawButton.addEventListener('click', () => this.setDrawing(!this.drawing));
    // A file input made for each choice: the page keeps one file input, the .osm.pbf one.
    q('#polygon-file').addEventListener('click', () => {
      const input = document.createElement('input');
      input.type = 'file';
      input.accept = '.geojson,.json,.poly,application/geo+json';
      input.addEventListener('change', () => {
        const file = input.files?.[0];
        if (file) void this.loadPolygonFile(file);
      });
      input.click();
    });
    this.setPlaceCount(0);
  }

  private field(name: 'relation' | 'poly' | 'place' | 'near' | 'radius'): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  /** Shows the place that is the area by name (a link gives only its id). */
  showName(name: string): void {
    this.name.value = name;
  }

  /** The worker holds `count` places of the file now (0: none read yet). */
  setPlaceCount(count: number): void {
    this.placeCount = count;
    this.hint.textContent = count > 0
      ? `${count} named places in this file (boundaries, multipolygons, place nodes): type a name`
      : 'The file’s places (boundaries, multipolygons, place nodes) are listed once a query has read the whole file';
  }

  private async showSuggestions(): Promise<void> {
    const text = this.name.value.trim();
    const found = text ? await this.search(text) : [];
    if (text !== this.name.value.trim()) return; // typed on meanwhile
    this.suggestions.replaceChildren(...found.map((p) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      const title = document.createElement('span');
      title.textContent = p.name; // untrusted text: never HTML
      const small = document.createElement('small');
      small.textContent = describePlace(p);
      button.append(title, ' ', small);
      button.addEventListener('click', () => this.pick(p));
      item.append(button);
      return item;
    }));
    if (text && found.length === 0 && this.placeCount > 0) this.hint.textContent = `no place named “${text}” in this file`;
    else this.setPlaceCount(this.placeCount);
  }

  /**
   * Makes place `p` the area: a boundary or multipolygon as itself, a place node as a circle
   * around it ({@link placeRadius}); the map frames it.
   */
  private pick(p: Place): void {
    this.name.value = p.name;
    if (p.at) {
      this.field('place').value = 'circle';
      this.field('near').value = `${p.at[0].toFixed(5)},${p.at[1].toFixed(5)}`;
      this.field('radius').value = String(placeRadius(p));
    } else {
      this.field('place').value = 'relation';
      this.field('relation').value = `relation/${p.id}`;
    }
    this.field('place').dispatchEvent(new Event('change'));
    this.suggestions.replaceChildren();
    this.hint.textContent = `${p.name}: ${describePlace(p)}`;
    this.changed(p.at !== null);
  }

  /** Starts or ends drawing: while on, a click on the map adds a point to the polygon. */
  setDrawing(on: boolean): void {
    this.drawing = on;
    this.drawButton.setAttribute('aria-pressed', String(on));
    this.drawButton.textContent = on ? 'Done drawing' : 'Draw on the map';
    if (on) {
      this.field('place').value = 'polygon';
      this.field('place').dispatchEvent(new Event('change'));
      this.field('poly').value = '';
      this.changed(false);
    }
  }

  /** Adds the point (`lat`, `lon`, degrees) to the polygon being drawn. */
  addVertex(lat: number, lon: number): void {
    const poly = this.field('poly');
    poly.value = `${poly.value.trim()} ${lat.toFixed(6)} ${lon.toFixed(6)}`.trim();
    this.changed(false);
  }

  /** Makes the polygon of a GeoJSON or `.poly` file the area; a problem with it is shown. */
  async loadPolygonFile(file: File): Promise<void> {
    try {
      const parts = parsePolygonFile(await file.text());
      this.field('place').value = 'polygon';
      this.field('place').dispatchEvent(new Event('change'));
      this.field('poly').value = formatPoly(parts);
      parsePoly(this.field('poly').value); // what the URL will carry reads back
      this.changed(true);
    } catch (e) {
      this.problem(`${file.name}: ${(e as Error).message}`);
    }
  }
}
