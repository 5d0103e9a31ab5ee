/**
 * How often the query worker tells the page about a run. Every page update costs a frame, which
 * a software renderer (SwiftShader, 1280×800) composites in ~5–50 ms of CPU taken from the
 * decoders, and MapLibre re-tiles every drawn match after each change: so the page hears little,
 * and what it hears comes in as few frames as possible.
 */
import type { Progress } from './types';

/**
 * Map changes are sent at most this many features at a time: a piece the page turns into
 * GeoJSON at once and hands to MapLibre in smaller updates (`web/map-view.ts`).
 */
export const CHANGES_MAX_FEATURES = 20_000;

/** Milliseconds between two sends of map changes, once `count` matches were found: a second, growing with the answer. */
export const changesInterval = (count: number): number => 1000 + count / 100;

/**
 * Milliseconds between two progress reports: twice a second, then once a second after 5 s, and
 * once a second after the last byte is read (the decoders then only finish the blobs in flight,
 * a fraction of a second, which the run's final report ends). A size that is not known
 * (NaN: a server without Range support sent no length) reads as still reading.
 */
export const progressInterval = (p: Progress): number => (p.elapsedMs < 5000 && !(p.bytesRead >= p.totalBytes) ? 500 : 1000);

/** How long (ms from the run's start) the first progress report waits for the header's file info. */
export const HEADER_WAIT_MS = 100;

/** Which of a run's progress reports go to the page, and when (one per run). */
export class ProgressPace {
  private last = -Infinity;
  private held: Progress | null = null;

  /**
   * Whether `progress`, made at `now` (ms, any clock), is sent now. Reports closer than
   * {@link progressInterval} to the last one sent are dropped; the first one, while the header's
   * file info is not known (`headerKnown`) and the run is younger than {@link HEADER_WAIT_MS},
   * is held for {@link takeHeld}, to be drawn in the same frame as that info.
   */
  offer(progress: Progress, now: number, headerKnown: boolean): boolean {
    if (now - this.last < progressInterval(progress)) return false;
    if (!headerKnown && progress.elapsedMs < HEADER_WAIT_MS) {
      this.held = progress;
      return false;
    }
    this.last = now;
    return true;
  }

  /** The report held back for the header, once, if none was sent since (call when the header is known). */
  takeHeld(now: number): Progress | null {
    const held = this.held;
    this.held = null;
    if (!held || this.last !== -Infinity) return null;
    this.last = now;
    return held;
  }
}
