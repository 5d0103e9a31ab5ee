#!/usr/bin/env node
/**
 * Writes an OsmChange file (.osc, the OSM wiki's "OsmChange" format) of later versions of some
 * elements, from their current versions as `osmium getid -f opl` prints them on stdin:
 * `scripts/make-osmium-fixtures.sh` applies it with `osmium apply-changes --with-history` to
 * make a history file written by libosmium, not by us. Every changed version is dated
 * 2025-01-01; by position in the input, nodes are in turn retagged (amenity=restaurant),
 * deleted, and moved 5 km north; ways are deleted; and one café node is created (2025-02-01).
 *   osmium getid -f opl FILE n1 n2 w3 | node scripts/make-history-changes.mjs > changes.osc
 */
import { readFileSync } from 'node:fs';

const WHEN = '2025-01-01T00:00:00Z';
const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** OPL escapes: %XXXX% is a Unicode code point in hex. */
const unopl = (s) => s.replace(/%([0-9a-fA-F]+)%/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));

/** One OPL line as {kind, id, version, tags, lat, lon, refs}. */
function parse(line) {
  const fields = Object.fromEntries(line.split(' ').map((f) => [f[0], f.slice(1)]));
  const kind = { n: 'node', w: 'way', r: 'relation' }[line[0]];
  const tags = fields.T ? fields.T.split(',').map((kv) => kv.split('=').map(unopl)) : [];
  const refs = fields.N ? fields.N.split(',').map((r) => r.slice(1)) : [];
  return { kind, id: line.slice(1).split(' ')[0], version: Number(fields.v), tags, lat: Number(fields.y), lon: Number(fields.x), refs };
}

const tagXml = (tags) => tags.map(([k, v]) => `<tag k="${xml(k)}" v="${xml(v)}"/>`).join('');
const attrs = (e, version, when) => `id="${e.id}" version="${version}" timestamp="${when}" changeset="1" uid="1" user="history-test"`;

const elements = readFileSync(0, 'utf8').split('\n').filter(Boolean).map(parse);
const modify = [];
const remove = [];
let nodes = 0;
for (const e of elements) {
  const v = e.version + 1;
  if (e.kind === 'way') {
    remove.push(`<way ${attrs(e, v, WHEN)}/>`);
  } else if (e.kind === 'node') {
    const turn = nodes++ % 3;
    if (turn === 1) remove.push(`<node ${attrs(e, v, WHEN)} lat="${e.lat}" lon="${e.lon}"/>`);
    else {
      const tags = turn === 0 ? e.tags.map(([k, val]) => [k, k === 'amenity' ? 'restaurant' : val]) : e.tags;
      const lat = turn === 2 ? e.lat + 0.045 : e.lat;
      modify.push(`<node ${attrs(e, v, WHEN)} lat="${lat.toFixed(7)}" lon="${e.lon}">${tagXml(tags)}</node>`);
    }
  }
}
const created = `<node id="9000000001" version="1" timestamp="2025-02-01T00:00:00Z" changeset="2" uid="1" user="history-test" lat="35.8989" lon="14.5146">${tagXml([['amenity', 'cafe'], ['name', 'New café']])}</node>`;
process.stdout.write(`<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="pbf-explorer make-history-changes">
<create>${created}</create>
<modify>
${modify.join('\n')}
</modify>
<delete>
${remove.join('\n')}
</delete>
</osmChange>
`);
