/**
 * The facts of a file as `osmium fileinfo` shows them, as [label, text] rows: shown by the page's
 * file-info view and printed by the command line's `info`. File strings are untrusted text.
 */
import { isHistory, type FileInfo } from '../types';

/**
 * A whole number with commas between groups of three digits, as `toLocaleString('en-US')` writes
 * it, without that call's first-use cost (≈ 50 ms of the page's thread loading locale data).
 */
export const groupDigits = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
/** Seconds since the Unix epoch as ISO 8601 UTC, without milliseconds. */
export const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function size(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unknown (the server did not say)';
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB (${groupDigits(bytes)} bytes)` : `${groupDigits(bytes)} bytes`;
}

/** The rows of the readable view: [label, text], the rows of unknown facts left out. */
export function fileInfoRows(info: FileInfo): [string, string][] {
  const h = info.header;
  const f = info.facts;
  const out: [string, string | null | undefined][] = [
    ['File', info.name],
    ['Size', size(info.size)],
    ['Writing program', h?.writing_program],
    ['Source', h?.source],
    ['Bbox', h?.bbox ? h.bbox.map((v) => v.toFixed(7)).join(', ') : h && 'none in the header'],
    ['Replication timestamp', h?.replication_timestamp != null ? isoTime(h.replication_timestamp) : null],
    ['Replication sequence number', h?.replication_sequence_number != null ? String(h.replication_sequence_number) : null],
    ['Replication base URL', h?.replication_base_url],
    ['Required features', h?.required_features.join(', ')],
    ['History file', h && isHistory(h) ? 'yes: every version of each element; queries answer with the versions current at the "As of" moment (now when empty)' : null],
    ['Optional features', h && (h.optional_features.join(', ') || 'none')],
  ];
  if (f) {
    const range = (r: [number, number] | null) => (r ? `${r[0]} – ${r[1]}` : 'none');
    out.push(
      ['Blobs', Object.entries(f.blobs).map(([c, n]) => `${groupDigits(n)} ${c}`).join(', ') || 'none'],
      ['Nodes', `${groupDigits(f.counts.nodes)} (ids ${range(f.id_ranges.node)})`],
      ['Ways', `${groupDigits(f.counts.ways)} (ids ${range(f.id_ranges.way)})`],
      ['Relations', `${groupDigits(f.counts.relations)} (ids ${range(f.id_ranges.relation)})`],
      ['Newest timestamp', f.newest_timestamp != null ? isoTime(f.newest_timestamp) : 'no metadata in the file'],
    );
  } else {
    out.push(['Contents', 'counted by the first whole read']);
  }
  return out.filter((r): r is [string, string] => r[1] != null && r[1] !== '');
}
