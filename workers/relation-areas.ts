/**
 * What the query worker keeps of a file for areas that are its relations (`in=relation/ID`):
 * the outlines read (so the next question inside the same relation reads no outline again) and
 * the named boundaries and multipolygons a whole read found (the page's place field searches
 * them by name). Both are of one file at a time, named by its `sourceKey`.
 */
import type { PlaceList } from '../wasm/pkg/pbf_explorer.js';
import type { Area, Place } from './types';

/** The outlines read, by relation id, and the file they are of. */
let outlines: { file: string; byRelation: Map<number, number[][][][]> } = { file: '', byRelation: new Map() };

/** The outline of relation `relation` of `file` kept from an earlier run, if any (GeoJSON MultiPolygon coordinates). */
export function keptOutline(file: string, area: Area): number[][][][] | null {
  if (typeof area !== 'object' || !('relation' in area) || outlines.file !== file) return null;
  return outlines.byRelation.get(area.relation) ?? null;
}

/** Keeps the outline of relation `relation` of `file` read by a run. */
export function keepOutline(file: string, relation: number, parts: number[][][][]): void {
  if (outlines.file !== file) outlines = { file, byRelation: new Map() };
  outlines.byRelation.set(relation, parts);
}

/** The places of the last file a whole read found them in. */
let places: { file: string; list: PlaceList } | null = null;

/** Keeps the places a whole read of `file` found (the list they replace is freed). */
export function keepPlaces(file: string, list: PlaceList): void {
  places?.list.free();
  places = { file, list };
}

/** How many places of `file` are kept (0 when none, or only another file's). */
export function placeCount(file: string): number {
  return places?.file === file ? places.list.count() : 0;
}

/** At most `max` places of `file` whose name holds `text`, best first; none when none are kept for it. */
export function searchPlaces(file: string, text: string, max: number): Place[] {
  return places?.file === file && text.trim() ? (JSON.parse(places.list.search(text, max)) as Place[]) : [];
}
