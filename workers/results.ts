/**
 * Merges blob results, in whatever order workers finish them, into the query's answer.
 * Nodes match on their own; a way matches when at least one of its nodes lies in the area,
 * and is drawn at the mean of those nodes. Node locations may arrive after the way, so ways
 * are placed provisionally as they come and finally in {@link ResultStore.finish}.
 */
import type { AreaNodes, BlobResult, Counts, Match, WayCandidate } from './types';

const key = (type: 'node' | 'way', id: number) => `${type[0]}${id}`;

export function emptyCounts(): Counts {
  return { nodes: 0, ways: 0, relations: 0, tags: 0, wayRefs: 0, relationMembers: 0 };
}

/**
 * The most node locations kept for placing ways (16 bytes each: 1.6 GB). An area holding more
 * nodes than this stops the query with a message rather than exhausting the tab's memory.
 */
export const MAX_LOCATIONS = 100_000_000;

export class ResultStore {
  readonly counts: Counts = emptyCounts();
  private matches = new Map<string, Match>();
  private candidates: WayCandidate[] = [];
  /** In-area node locations, one sorted chunk per blob: 16 bytes a node. */
  private chunks: AreaNodes[] = [];

  private locations = 0;

  /**
   * Adds one blob's result.
   * @throws Error when the area's node locations would exceed {@link MAX_LOCATIONS}.
   */
  add(result: BlobResult): void {
    const n = result.areaNodes.ids.length;
    if (this.locations + n > MAX_LOCATIONS) {
      throw new Error(`the area holds more than ${MAX_LOCATIONS / 1e6} M nodes, whose locations (16 bytes each) would not fit in memory: choose a smaller area`);
    }
    this.locations += n;
    for (const k of Object.keys(this.counts) as (keyof Counts)[]) this.counts[k] += result.counts[k];
    if (n > 0) this.chunks.push(result.areaNodes);
    for (const n of result.nodes) this.matches.set(key('node', n.id), { type: 'node', ...n });
    for (const w of result.ways) {
      if (!w.position) this.candidates.push(w);
      this.placeWay(w);
    }
  }

  /** Final placement of every way, once all blobs are in. */
  finish(): void {
    for (const w of this.candidates) this.placeWay(w);
  }

  /** The matches so far. */
  list(): Match[] {
    return [...this.matches.values()];
  }

  get size(): number {
    return this.matches.size;
  }

  private placeWay(w: WayCandidate): void {
    const position = w.position ?? this.meanLocation(w.refs);
    const k = key('way', w.id);
    if (position) this.matches.set(k, { type: 'way', id: w.id, lat: position[0], lon: position[1], tags: w.tags });
    else this.matches.delete(k);
  }

  /** Mean [lat, lon] in degrees of the referenced nodes whose location is known, or null. */
  private meanLocation(refs: number[]): [number, number] | null {
    let lat = 0;
    let lon = 0;
    let n = 0;
    for (const id of refs) {
      const i = this.find(id);
      if (!i) continue;
      lat += i.chunk.lats[i.at];
      lon += i.chunk.lons[i.at];
      n++;
    }
    return n > 0 ? [(lat / n) * 1e-7, (lon / n) * 1e-7] : null;
  }

  private find(id: number): { chunk: AreaNodes; at: number } | null {
    for (const chunk of this.chunks) {
      const ids = chunk.ids;
      if (id < ids[0] || id > ids[ids.length - 1]) continue;
      let lo = 0;
      let hi = ids.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (ids[mid] < id) lo = mid + 1;
        else if (ids[mid] > id) hi = mid - 1;
        else return { chunk, at: mid };
      }
    }
    return null;
  }
}
