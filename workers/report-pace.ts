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

/**
 * Milliseconds at a run's start during which the page hears nothing: the first progress report,
 * the header's file info and the first matches go out together as it ends, in one frame, and
 * a run that ends within it is drawn once, at its end. A run that short needs no progress shown
 * (the page says it is reading), and each of its frames was taken from the decoders
 * (`docs/decisions.md`).
 */
export const QUIET_START_MS = 1000;

/**
 * A quiet start goes on while the run looks this close to its end (ms, by {@link readEndsWithin}),
 * checked again every {@link QUIET_RECHECK_MS}, but never past {@link QUIET_START_MAX_MS}: a
 * progress bar shown for a run's last moment tells a person nothing and costs the decoders a
 * frame (`docs/decisions.md`).
 */
export const QUIET_NEAR_END_MS = 500;
export const QUIET_RECHECK_MS = 100;
export const QUIET_START_MAX_MS = 2000;

/**
 * How long (ms) the rest of the read will take at its pace so far: elapsed × bytes left / bytes
 * read. Infinity while nothing is read or the size is unknown (a server that sent no length).
 */
export function readEndsWithin(p: Progress): number {
  if (!(p.bytesRead > 0) || !Number.isFinite(p.totalBytes)) return Infinity;
  return (p.elapsedMs * Math.max(0, p.totalBytes - p.bytesRead)) / p.bytesRead;
}

/** Which of a run's progress reports go to the page, and when (one per run). */
export class ProgressPace {
  private last = -Infinity;
  private held: Progress | null = null;
  private quiet = true;

  /**
   * Whether `progress`, made at `now` (ms, any clock), is sent now. Reports of the run's quiet
   * start are held (the last one, for {@link takeHeld}); later ones closer than
   * {@link progressInterval} to the last one sent are dropped.
   */
  offer(progress: Progress, now: number): boolean {
    if (this.quiet) {
      this.held = progress;
      return false;
    }
    if (now - this.last < progressInterval(progress)) return false;
    this.last = now;
    return true;
  }

  /**
   * Asked as the quiet start's time is up (at {@link QUIET_START_MS}, then every
   * {@link QUIET_RECHECK_MS}), `elapsedMs` into the run: whether it goes on, as the last report
   * held says the read ends within {@link QUIET_NEAR_END_MS}, until {@link QUIET_START_MAX_MS}.
   * Once it says no, the quiet start is over.
   */
  quietGoesOn(elapsedMs: number): boolean {
    const nearEnd = this.held !== null && readEndsWithin(this.held) <= QUIET_NEAR_END_MS;
    this.quiet = nearEnd && elapsedMs < QUIET_START_MAX_MS;
    return this.quiet;
  }

  /** The last report held in the quiet start, once, if none was sent since (call as it ends). */
  takeHeld(now: number): Progress | null {
    const held = this.held;
    this.held = null;
    if (!held || this.last !== -Infinity) return null;
    this.last = now;
    return held;
  }
}
