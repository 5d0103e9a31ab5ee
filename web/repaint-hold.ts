/**
 * One map frame per change of a GeoJSON source, not two. When MapLibre's worker has applied a
 * `setData`/`updateData`, the source fires `data` events that make the map redraw at once,
 * while the tiles that change are still being cut again in the worker; it redraws again when
 * they come back. The first frame shows the old tiles: on a machine without a GPU it is a whole
 * software-rendered frame (composited and read back, 100–400 ms of CPU on a 2-core machine)
 * taken from the decoders for nothing.
 */
import type { GeoJSONSource, Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';

/** The longest a redraw is held (ms), should the source's tiles never report as loaded. */
const MAX_HOLD_MS = 1000;

/**
 * Holds the map's redraws from the moment one of `sources` (by id) has new data until the
 * tiles of every such source are loaded again, then draws once. Other changes asked for
 * meanwhile (a camera move) are drawn then too, at most {@link MAX_HOLD_MS} later. Uses the
 * public `triggerRepaint`, through which MapLibre asks for every frame.
 */
export function drawOnceTilesLoad(map: MapLibreMap, sources: Record<string, GeoJSONSource>): void {
  const repaint = map.triggerRepaint.bind(map);
  const pending = new Set<string>();
  let held = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    pending.clear();
    clearTimeout(timer);
    if (held) {
      held = false;
      repaint();
    }
  };
  map.triggerRepaint = () => {
    if (pending.size > 0) held = true;
    else repaint();
  };
  for (const [id, source] of Object.entries(sources)) {
    // The source's own listeners run before the map's, which asks for the redraw.
    source.on('data', (e: MapSourceDataEvent) => {
      if (e.sourceDataType !== 'metadata' && e.sourceDataType !== 'content') return;
      if (pending.size === 0) timer = setTimeout(release, MAX_HOLD_MS);
      pending.add(id);
    });
  }
  map.on('sourcedata', (e: MapSourceDataEvent) => {
    // Not at `metadata`: the tiles to cut again are only marked at `content`.
    if (!pending.has(e.sourceId) || e.sourceDataType === 'metadata' || !map.isSourceLoaded(e.sourceId)) return;
    pending.delete(e.sourceId);
    if (pending.size === 0) release();
  });
}
