/**
 * The answer as an export's text, in pieces of at most {@link EXPORT_PIECE} matches, for the page's
 * download (the query worker) and the command line's standard output alike: GeoJSON (RFC 7946,
 * one Feature a line, the file and query in the foreign member `metadata`, §6.1), GeoJSON text
 * sequences (RFC 8142) or CSV (RFC 4180). The whole text is never held at once.
 */
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';

/** Matches written per piece. */
export const EXPORT_PIECE = 5000;

export type ExportFormat = 'geojson' | 'geojsonseq' | 'csv';

/** The pieces of the export of `assembler`'s answer in `format`, in the list's order; `metadata` goes into GeoJSON's. */
export function* exportPieces(assembler: QueryAssembler, format: ExportFormat, metadata: unknown): Generator<string> {
  const total = assembler.count();
  if (format === 'csv') yield assembler.exportCsvHeader();
  if (format === 'geojson') yield `{"type":"FeatureCollection","metadata":${JSON.stringify(metadata)},"features":[\n`;
  for (let at = 0; at < total; at += EXPORT_PIECE) {
    const count = Math.min(EXPORT_PIECE, total - at);
    if (format === 'csv') yield assembler.exportCsvRows(at, count);
    else if (format === 'geojson') yield (at > 0 ? ',\n' : '') + assembler.exportFeatures(at, count);
    else {
      // RFC 8142: each text is RS, the JSON, LF. One feature per call keeps them apart.
      let piece = '';
      for (let i = at; i < at + count; i++) {
        const feature = assembler.exportFeatures(i, 1);
        if (feature) piece += `\x1e${feature}\n`;
      }
      yield piece;
    }
  }
  if (format === 'geojson') yield '\n]}\n';
}
