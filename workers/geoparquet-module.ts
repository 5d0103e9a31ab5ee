/**
 * The GeoParquet writer in a browser worker: a Wasm module of its own, fetched and instantiated
 * on the first GeoParquet export, so that nobody who never asks for one downloads it.
 */
import type { GeoParquetWriterClass } from './export-pieces';

let loading: Promise<GeoParquetWriterClass> | null = null;

/**
 * The writer's class, once its module is loaded. A failed load is not kept: the next export loads
 * again (the module may be cached by then, or the network back).
 * @throws Error when the module cannot be fetched or instantiated (offline before it was cached).
 */
export function geoParquetWriter(): Promise<GeoParquetWriterClass> {
  loading ??= import('../wasm/geoparquet/pkg/pbf_explorer_geoparquet.js').then(async (module) => {
    await module.default();
    return module.GeoParquetWriter;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
