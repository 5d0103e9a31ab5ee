/**
 * Names the kind of a file that is not a PBF from its first bytes, so the user is told
 * "this is OSM XML" rather than "bad header length".
 */

/** Returns a sentence describing a recognised non-PBF file, or null when it may be a PBF. */
export function describeNonPbf(head: Uint8Array): string | null {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 512)).replace(/^\uFEFF/, '').trimStart();
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (/^<\?xml/i.test(text) || /^<osm[\s>]/i.test(text)) {
    return 'this is OSM XML, not PBF; convert it with `osmium cat in.osm -o out.osm.pbf`';
  }
  if (/^<!doctype html|^<html/i.test(text)) return 'this is an HTML page (an error page or a download link?), not a PBF file';
  if (starts(0x42, 0x5a, 0x68)) return 'this is bzip2-compressed (.osm.bz2?); decompress and convert it with `osmium cat in.osm.bz2 -o out.osm.pbf`';
  if (starts(0x1f, 0x8b)) return 'this is gzip-compressed (.gz); decompress it first, and convert OSM XML with `osmium cat`';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'this is a zip archive; extract the .osm.pbf from it first';
  if (/^\{/.test(text)) return 'this looks like JSON (GeoJSON?), not a PBF file';
  return null;
}
