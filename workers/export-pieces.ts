/**
 * The answer as an export's file, in pieces of at most {@link EXPORT_PIECE} matches and about
 * {@link EXPORT_PIECE_BYTES} (a match of 30 MB of tags makes a piece of its own), for the page's
 * download (the query worker) and the command line's standard output alike: GeoJSON (RFC 7946,
 * one Feature a line, the file and query in the foreign member `metadata`, §6.1), GeoJSON text
 * sequences (RFC 8142), CSV (RFC 4180) or GeoParquet 1.1 (a row group a piece). The whole file
 * is never held at once.
 */
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import type { GeoParquetWriter } from '../wasm/geoparquet/pkg/pbf_explorer_geoparquet.js';
import type { ExportFormat } from './types';

export type { ExportFormat };

const utf8 = new TextDecoder();

/** Matches written per piece, at most. */
export const EXPORT_PIECE = 5000;
/** Matches per GeoParquet row group, at most: larger groups compress and prune better. */
export const PARQUET_ROW_GROUP = 20_000;
/**
 * Bytes of text after which a piece ends (the match that passes it is the piece's last): pieces
 * are bounded by bytes, not only by a count of matches, as one element may hold megabytes of
 * tags and a JavaScript string at most ~512 M characters.
 */
export const EXPORT_PIECE_BYTES = 8 << 20;

/** The GeoParquet writer's class, from its own Wasm module (`geoparquet-module.ts`, `node-wasm.ts`). */
export type GeoParquetWriterClass = typeof GeoParquetWriter;

/**
 * The pieces of the export of `assembler`'s answer in `format`: the list's rows, in its order
 * and as its filter keeps them (`QueryAssembler.filterRows`); `metadata` goes into GeoJSON's
 * and into GeoParquet's key-value metadata (`pbf_explorer`). The rows come as bytes straight
 * from the Wasm memory (no UTF-16 string on the way into a `Blob`), the rest as strings.
 * @param parquet the writer's class, needed for `geoparquet` (loaded by the caller: a browser
 *   loads it asynchronously).
 * @throws Error for `geoparquet` without `parquet`, or when the writer refuses a piece.
 */
export function* exportPieces(assembler: QueryAssembler, format: ExportFormat, metadata: unknown, parquet?: GeoParquetWriterClass): Generator<string | Uint8Array> {
  if (format === 'geoparquet') {
    if (!parquet) throw new Error('GeoParquet export: the writer module is not loaded');
    yield* parquetPieces(assembler, metadata, parquet);
    return;
  }
  const total = assembler.rowCount();
  if (format === 'csv') yield assembler.exportCsvHeader();
  if (format === 'geojson') yield `{"type":"FeatureCollection","metadata":${JSON.stringify(metadata)},"features":[\n`;
  for (let at = 0; at < total; ) {
    if (format === 'csv') yield assembler.exportCsvRows(at, EXPORT_PIECE, EXPORT_PIECE_BYTES);
    else if (format === 'geojson') yield assembler.exportFeatures(at, EXPORT_PIECE, EXPORT_PIECE_BYTES);
    else {
      // RFC 8142: each text is RS, the JSON, LF. One feature per call (from the list's start,
      // so with no separator before it) keeps them apart.
      let piece = '';
      let n = 0;
      for (; n < EXPORT_PIECE && at + n < total && piece.length < EXPORT_PIECE_BYTES; n++) {
        const feature = utf8.decode(assembler.exportFeatures(at + n, 1, EXPORT_PIECE_BYTES)).replace(/^,\n/, '');
        if (feature) piece += `\x1e${feature}\n`;
      }
      yield piece;
      at += n;
      continue;
    }
    at += Math.max(1, assembler.exportedCount());
  }
  if (format === 'geojson') yield '\n]}\n';
}

/** A GeoParquet file's bytes: a row group per piece of rows, then the footer. */
function* parquetPieces(assembler: QueryAssembler, metadata: unknown, Writer: GeoParquetWriterClass): Generator<Uint8Array> {
  const writer = new Writer(assembler.exportParquetColumns(JSON.stringify(metadata)));
  try {
    const total = assembler.rowCount();
    for (let at = 0; at < total; at += Math.max(1, assembler.exportedCount())) {
      yield writer.writeRowGroup(assembler.exportParquetRows(at, PARQUET_ROW_GROUP, EXPORT_PIECE_BYTES));
    }
    yield writer.finish();
  } finally {
    writer.free();
  }
}
