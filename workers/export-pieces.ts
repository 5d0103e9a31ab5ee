/**
 * The answer as an export's text, in pieces of at most {@link EXPORT_PIECE} matches and about
 * {@link EXPORT_PIECE_BYTES} (a match of 30 MB of tags makes a piece of its own), for the page's
 * download (the query worker) and the command line's standard output alike: GeoJSON (RFC 7946,
 * one Feature a line, the file and query in the foreign member `metadata`, §6.1), GeoJSON text
 * sequences (RFC 8142) or CSV (RFC 4180). The whole text is never held at once.
 */
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';

const utf8 = new TextDecoder();

/** Matches written per piece, at most. */
export const EXPORT_PIECE = 5000;
/**
 * Bytes of text after which a piece ends (the match that passes it is the piece's last): pieces
 * are bounded by bytes, not only by a count of matches, as one element may hold megabytes of
 * tags and a JavaScript string at most ~512 M characters.
 */
export const EXPORT_PIECE_BYTES = 8 << 20;

export type ExportFormat = 'geojson' | 'geojsonseq' | 'csv';

/**
 * The pieces of the export of `assembler`'s answer in `format`: the list's rows, in its order
 * and as its filter keeps them (`QueryAssembler.filterRows`); `metadata`
 * goes into GeoJSON's. The rows come as UTF-8 bytes straight from the Wasm memory (no UTF-16
 * string on the way into a `Blob`), the rest as strings.
 */
export function* exportPieces(assembler: QueryAssembler, format: ExportFormat, metadata: unknown): Generator<string | Uint8Array> {
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
