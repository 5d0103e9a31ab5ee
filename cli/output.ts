/**
 * The answer written out, piece by piece (never held whole): osmar's line format, GeoJSON
 * (RFC 7946), GeoJSON text sequences (RFC 8142), CSV (RFC 4180) or GeoParquet 1.1. Matches come
 * in the list's order: by distance from the centre when the area is a circle, else by label.
 */
import type { Writable } from 'node:stream';
import type { QueryAssembler } from '../wasm/pkg/pbf_explorer.js';
import { EXPORT_PIECE, EXPORT_PIECE_BYTES, exportPieces } from '../workers/export-pieces';
import { geoParquetWriter } from '../workers/node-wasm';
import type { FileInfo, Match, Query } from '../workers/types';
import { printable } from './printable';

export const FORMATS = ['text', 'geojson', 'geojsonseq', 'csv', 'geoparquet'] as const;
export type Format = (typeof FORMATS)[number];

const utf8 = new TextDecoder();

/**
 * Writes `piece` (text, or UTF-8 bytes) with its control characters escaped (`printable`: it came from the file), waiting
 * while `out` is full (so a slow reader holds the writer back, not memory).
 */
async function write(out: Writable, piece: string | Uint8Array): Promise<void> {
  const text = typeof piece === 'string' ? piece : utf8.decode(piece);
  if (text) await writeBytes(out, printable(text));
}

/** Writes `piece` as it is (a binary format's bytes), waiting while `out` is full. */
async function writeBytes(out: Writable, piece: string | Uint8Array): Promise<void> {
  if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/**
 * One match in osmar's line format: a `meta:` block (id, type, distance in whole metres when the
 * area has a centre, link on openstreetmap.org, why it has no geometry or a broken one, its
 * class in a change view), then `key: value` per tag sorted by key. A line
 * break in a value is written `\n`, so each tag stays one line for grep.
 */
export function textBlock(m: Match): string {
  const line = (k: string, v: string) => `${k}: ${v.replace(/\r?\n|\r/g, '\\n')}\n`;
  let out = line('meta:id', String(m.id)) + line('meta:type', m.type);
  if (m.distance !== undefined) out += line('meta:distance', `${Math.round(m.distance)}m`);
  out += line('meta:link', `https://www.openstreetmap.org/${m.type}/${m.id}`);
  if (m.problem) out += line('meta:problem', m.problem);
  if (m.change) out += line('meta:change', m.change);
  const tags = [...m.tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of tags) out += line(k, v);
  return out;
}

/**
 * Writes the answer in `assembler` to `out` in `format`. `info` and `query` go into the GeoJSON's
 * foreign member `metadata` (RFC 7946 §6.1) and GeoParquet's key-value metadata `pbf_explorer`,
 * as in the page's export.
 */
export async function writeAnswer(out: Writable, assembler: QueryAssembler, format: Format, info: FileInfo, query: Query): Promise<void> {
  if (typeof query.area === 'object' && 'circle' in query.area) assembler.orderBy('distance', false);
  const metadata = { generator: 'pbf-explorer', file: info, query };
  if (format === 'geoparquet') {
    for (const piece of exportPieces(assembler, format, metadata, geoParquetWriter())) await writeBytes(out, piece);
    return;
  }
  if (format !== 'text') {
    for (const piece of exportPieces(assembler, format, metadata)) await write(out, piece);
    return;
  }
  const total = assembler.count();
  for (let at = 0; at < total; ) {
    // Whole matches (never cut), in pieces bounded by bytes as the exports' are.
    const rows: Match[] = JSON.parse(assembler.exportRows(at, EXPORT_PIECE, EXPORT_PIECE_BYTES));
    await write(out, rows.map((m, i) => (at + i > 0 ? '\n' : '') + textBlock(m)).join(''));
    at += Math.max(1, assembler.exportedCount());
  }
}
