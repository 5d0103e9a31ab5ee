/**
 * The command line (`cli/`, built to dist-cli/ by `npm run build`) as a script uses it: every
 * listed query in each output format against the answers libosmium computed, osmar's line
 * format, exit codes and messages, the blob index, a URL read with Range requests, and a file
 * optimized (grouped by place) answering as the original, locally and over HTTP.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, FIXTURE_DIR, QUERIES, expectedAnswer, type ListedQuery } from '../e2e/data';
import { lookAlike } from '../look-alike';
import { startLocalServer } from '../local-server';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';

const CLI = resolve(__dirname, '../../cli/pbf-explorer.mjs');
const SLOW = 120_000;

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (and `env` added), collecting its output. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', fail);
    child.on('close', (status) => done({ status: status ?? -1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
}

const areaArgs = (q: ListedQuery) => (q.bbox ? ['--bbox', q.bbox.join(',')] : ['--near', q.near!.join(','), '--radius', String(q.radius)]);

type Found = { type: string; id: number }[];

/** The elements of an answer in each format, in the order written. */
const parse: Record<string, (text: string) => Found> = {
  text: (text) =>
    text.split('\n\n').filter((b) => b.trim()).map((block) => {
      const field = (name: string) => block.match(new RegExp(`^meta:${name}: (.*)$`, 'm'))?.[1];
      return { type: field('type')!, id: Number(field('id')) };
    }),
  geojson: (text) => (JSON.parse(text).features as { properties: { osm_type: string; osm_id: number } }[]).map((f) => ({ type: f.properties.osm_type, id: f.properties.osm_id })),
  geojsonseq: (text) => {
    expect(text.startsWith('\x1e')).toBe(true);
    return text.split('\x1e').slice(1).map((t) => {
      expect(t.endsWith('\n')).toBe(true);
      const p = JSON.parse(t).properties;
      return { type: p.osm_type, id: p.osm_id };
    });
  },
  csv: (text) => {
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header.startsWith('osm_type,osm_id,lat,lon,geometry')).toBe(true);
    return rows.map((r) => {
      const [type, id] = r.split(',');
      return { type, id: Number(id) };
    });
  },
};

function expectAnswer(found: Found, q: ListedQuery): void {
  const want = expectedAnswer(q);
  expect(found.length).toBe(want.count);
  const ids = (type: string) => found.filter((f) => f.type === type).map((f) => f.id).sort((a, b) => a - b);
  if (want.nodes) expect(ids('node')).toEqual([...want.nodes].sort((a, b) => a - b));
  if (want.ways) expect(ids('way')).toEqual([...want.ways].sort((a, b) => a - b));
  if (want.relations) expect(ids('relation')).toEqual([...want.relations].sort((a, b) => a - b));
}

describe('every listed query, in every format', () => {
  for (const q of QUERIES) {
    for (const format of Object.keys(parse)) {
      it(`${q.file}: ${q.q} (${format})`, { timeout: SLOW }, async () => {
        const run = await cli(['query', join(DATA_DIR, q.file), ...areaArgs(q), '--format', format, ...q.q.split(' ')]);
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expectAnswer(parse[format](run.stdout), q);
      });
    }
  }
});

describe('osmar', () => {
  const malta = join(DATA_DIR, 'malta.osm.pbf');

  it("writes osmar's line format, nearest first", { timeout: SLOW }, async () => {
    const run = await cli(['osmar', '35.8989', '14.5146', '1000', 'amenity=cafe'], { OSMAR_PBF_FILE: malta });
    expect(run.status).toBe(0);
    const blocks = run.stdout.split('\n\n');
    expect(run.stdout.endsWith('\n')).toBe(true);
    let last = -1;
    for (const block of blocks) {
      const lines = block.trimEnd().split('\n');
      // meta:id, meta:type, meta:distance, meta:link, then the tags, each "key: value", by key
      expect(lines[0]).toMatch(/^meta:id: \d+$/);
      expect(lines[1]).toMatch(/^meta:type: (node|way|relation)$/);
      expect(lines[2]).toMatch(/^meta:distance: \d+m$/);
      const [, type, id] = lines[3].match(/^meta:link: https:\/\/www\.openstreetmap\.org\/(node|way|relation)\/(\d+)$/)!;
      expect(`${type} ${id}`).toBe(`${lines[1].slice(11)} ${lines[0].slice(9)}`);
      const keys = lines.slice(4).map((l) => l.slice(0, l.indexOf(': ')));
      expect(keys).toEqual([...keys].sort());
      expect(lines.slice(4)).toContain('amenity: cafe');
      const distance = Number(lines[2].slice(15, -1));
      expect(distance).toBeGreaterThanOrEqual(last);
      expect(distance).toBeLessThanOrEqual(1000);
      last = distance;
    }
    expectAnswer(parse.text(run.stdout), QUERIES.find((q) => q.expected === 'malta.cafe-1000m.json')!);
  });

  it('or-s the values of one key and and-s the keys; KEY=_ is any value', { timeout: SLOW }, async () => {
    const count = async (...tags: string[]) => parse.text((await cli(['osmar', '35.8989', '14.5146', '1000', ...tags], { OSMAR_PBF_FILE: malta })).stdout).length;
    const [cafe, restaurant, both, withCuisine, cafeCuisine] = await Promise.all([
      count('amenity=cafe'),
      count('amenity=restaurant'),
      count('amenity=cafe', 'amenity=restaurant'),
      count('amenity=cafe', 'cuisine=_'),
      count('amenity=cafe', 'cuisine'),
    ]);
    expect(both).toBe(cafe + restaurant);
    expect(withCuisine).toBeGreaterThan(0);
    expect(withCuisine).toBeLessThan(cafe);
    expect(cafeCuisine).toBe(withCuisine);
  });

  it('gives the ids the Go peer gives (bench/go-peer, osmar\'s method in Go) when Go is at hand', { timeout: 300_000 }, async (ctx) => {
    // osmar's own engine (github.com/codesoap/pbf) is not served by this machine's module proxy;
    // the peer does what osmar does over github.com/paulmach/osm's decoder (README, "Benchmark").
    const peer = join(tmpdir(), `pbf-explorer-go-peer-${process.pid}`);
    try {
      execFileSync('go', ['build', '-o', peer, '.'], { cwd: resolve(__dirname, '../../bench/go-peer'), stdio: 'pipe' });
    } catch (e) {
      console.log(`skipped: the Go peer could not be built (${(e as Error).message.split('\n')[0]})`);
      ctx.skip();
    }
    try {
      const cases = [['35.8989', '14.5146', 'amenity=cafe'], ['35.8790', '14.4775', 'shop=bicycle'], ['35.8989', '14.5146', 'amenity=restaurant', 'cuisine=_']];
      for (const [lat, lon, ...tags] of cases) {
        const ours = await cli(['osmar', lat, lon, '1000', ...tags], { OSMAR_PBF_FILE: malta });
        const theirs = execFileSync(peer, [malta, lat, lon, '1000', ...tags]).toString();
        const ids = (text: string) => parse.text(text).map((f) => `${f.type}/${f.id}`).sort();
        expect(ids(ours.stdout).length, tags.join(' ')).toBeGreaterThan(0);
        expect(ids(ours.stdout), tags.join(' ')).toEqual(ids(theirs));
      }
    } finally {
      rmSync(peer, { force: true });
    }
  });
});

/**
 * `file` with its OSMData frames in reverse order (the OSMHeader first): relations, then ways,
 * then nodes. A frame is a 4-byte big-endian BlobHeader length, the BlobHeader, then its Blob
 * of `datasize` bytes (BlobHeader field 3, a varint; PBF Format, "File format").
 */
function reversedFrames(file: Buffer): Buffer {
  const frames: Buffer[] = [];
  for (let at = 0; at < file.length; ) {
    const headerEnd = at + 4 + file.readUInt32BE(at);
    let datasize = 0;
    for (let i = at + 4; i < headerEnd; ) {
      const key = file[i++];
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        const b = file[i++];
        value += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      if (key === 0x18) datasize = value; // field 3, varint
      else if ((key & 7) === 2) i += value; // a length-delimited field (the type): skip its bytes
    }
    frames.push(file.subarray(at, headerEnd + datasize));
    at = headerEnd + datasize;
  }
  return Buffer.concat([frames[0], ...frames.slice(1).reverse()]);
}

describe('a file not sorted by type then id', () => {
  // A whole read drops candidate ways from the first blob of ways or relations on, as if the
  // file were sorted; here the area's nodes come last, so their blobs are scanned again.
  it('gives the answers of the sorted file', { timeout: SLOW }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-reversed-'));
    try {
      const reversed = join(dir, 'reversed.osm.pbf');
      writeFileSync(reversed, reversedFrames(readFileSync(join(DATA_DIR, 'malta.osm.pbf'))));
      for (const q of ['amenity=cafe', 'building']) {
        const args = ['--near', '35.8989,14.5146', '--radius', '1000', '--format', 'csv', q];
        const sorted = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), ...args]);
        const unsorted = await cli(['query', reversed, ...args]);
        const ids = (r: Run) => parse.csv(r.stdout).map((f) => `${f.type}/${f.id}`).sort();
        expect(unsorted.status, unsorted.stderr).toBe(0);
        expect(ids(sorted).filter((id) => id.startsWith('way/')).length, q).toBeGreaterThan(1);
        expect(ids(unsorted), q).toEqual(ids(sorted));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('no match dropped or thinned in an export', () => {
  it('with no area, matches none of whose nodes is in the file are exported with no geometry and the reason', { timeout: SLOW }, async () => {
    // fixtures::members_missing: node 1 and relation 31 placed; way 20 and relation 30 not.
    const file = resolve(__dirname, '../../test-results/fixtures/members-missing.osm.pbf');
    const geojson = await cli(['query', file, '--format', 'geojson', 'amenity=cafe']);
    expect(geojson.status, geojson.stderr).toBe(0);
    const features = JSON.parse(geojson.stdout).features as GeoJSON.Feature[];
    const unplaced = features.filter((f) => f.geometry === null).map((f) => `${f.properties!.osm_type}/${f.properties!.osm_id}: ${f.properties!.problem}`);
    expect(features).toHaveLength(4);
    expect(unplaced.sort()).toEqual([
      "relation/30: no geometry: none of its members' nodes is in the file",
      'way/20: no geometry: none of its nodes is in the file',
    ]);
    const csv = await cli(['query', file, '--format', 'csv', 'amenity=cafe']);
    const [header, ...rows] = csv.stdout.trimEnd().split('\r\n').map((r) => r.split(','));
    const way = Object.fromEntries(header.map((k, i) => [k, rows.find((r) => r[0] === 'way')![i]]));
    expect(way).toMatchObject({ osm_id: '20', lat: '', lon: '', geometry: '', problem: 'no geometry: none of its nodes is in the file' });
    const text = await cli(['query', file, 'amenity=cafe']);
    expect(text.stdout).toContain('meta:problem: no geometry: none of its nodes is in the file');
  });

  it('an answer over 10 000 matches, drawn as points, is exported with every way and relation\'s full geometry', { timeout: SLOW }, async () => {
    // expected/with-relations/malta.building-all.json: 21 081 matches.
    const want = JSON.parse(readFileSync(join(DATA_DIR, 'expected/with-relations/malta.building-all.json'), 'utf8'));
    const run = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), '--format', 'geojson', 'building']);
    expect(run.status, run.stderr).toBe(0);
    const features = JSON.parse(run.stdout).features as GeoJSON.Feature[];
    expect(features).toHaveLength(want.count_with_relations);
    const kinds = (type: string) => [...new Set(features.filter((f) => f.properties!.osm_type === type).map((f) => f.geometry?.type))].sort();
    expect(features.filter((f) => f.geometry?.type === 'Point')).toHaveLength(want.nodes.length);
    expect(kinds('node')).toEqual(['Point']);
    expect(kinds('way')).toContain('Polygon');
    expect(kinds('way')).not.toContain('Point');
    expect(kinds('relation')).not.toContain('Point');
  });
});

describe('areas people think in', () => {
  // libosmium's area assembler and shapely's point-in-polygon (tests/answers/areas/make-answers.py).
  const answers: { file: string; area: { relation?: number; polygon?: number[][][][] }; q: string; inside: string; nodes: number[]; ways: number[]; relations: number[] }[] =
    JSON.parse(readFileSync(resolve(__dirname, '../answers/areas/answers.json'), 'utf8'));
  const idsOf = (found: Found, type: string) => found.filter((f) => f.type === type).map((f) => f.id).sort((a, b) => a - b);

  it('--in relation/ID and --poly (text and .poly file) give libosmium\'s answers', { timeout: 300_000 }, async () => {
    const valletta = answers.find((a) => a.area.relation === 7510580 && a.q === 'building')!;
    const parts = answers.find((a) => a.file === 'malta.osm.pbf' && a.area.polygon)!;
    const polyFile = join(tmpdir(), `pbf-explorer-${process.pid}.poly`);
    const section = (name: string, ring: number[][]) => [name, ...ring.map(([lon, lat]) => `${lon} ${lat}`), 'END'];
    writeFileSync(polyFile, ['x', ...section('1', parts.area.polygon![0][0]), ...section('!2', parts.area.polygon![0][1]), ...section('3', parts.area.polygon![1][0]), 'END'].join('\n'));
    const polyText = parts.area.polygon!.map((rings) => rings.map((r, i) => (i ? '!' : '') + r.map(([lon, lat]) => `${lat} ${lon}`).join(' ')).join(';')).join(';');
    const runs: [typeof valletta, string[]][] = [
      [valletta, ['--in', 'relation/7510580', 'building']],
      [parts, ['--poly', polyFile, ...parts.q.split(' ')]],
      [parts, ['--poly', polyText, ...parts.q.split(' ')]],
    ];
    for (const [want, args] of runs) {
      const run = await cli(['query', join(DATA_DIR, want.file), '--no-index', '--format', 'csv', ...args]);
      expect(run.status, run.stderr).toBe(0);
      const found = parse.csv(run.stdout);
      expect([idsOf(found, 'node'), idsOf(found, 'way'), idsOf(found, 'relation')]).toEqual([want.nodes, want.ways, want.relations]);
    }
    const broken = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), '--in', 'relation/1', 'amenity']);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toBe('pbf-explorer: error: no area to read in: relation 1 is not in the file\n');
    const usage = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), '--poly', '35.9 14.5 35.9', 'amenity']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('is not a list of lat lon pairs');
  });
});

describe('history files', () => {
  // Written by scripts/make-osmium-fixtures.sh (npm test runs it first): a history file and
  // osmium time-filter's snapshot of it at a moment.
  const dir = resolve(__dirname, '../../test-results/osmium');
  it('--at answers as osmium time-filter cuts the file at that moment', { timeout: SLOW }, async (ctx) => {
    if (!existsSync(join(dir, 'malta-history.osh.pbf'))) {
      console.log('skipped: run scripts/make-osmium-fixtures.sh first (npm test does)');
      ctx.skip();
    }
    const area = ['--near', '35.8989,14.5146', '--radius', '1000', '--format', 'csv', 'amenity=cafe'];
    const history = await cli(['query', join(dir, 'malta-history.osh.pbf'), '--at', '2024-06-01', ...area]);
    const snapshot = await cli(['query', join(dir, 'malta-2024-06-01.osm.pbf'), ...area]);
    const now = await cli(['query', join(dir, 'malta-history.osh.pbf'), ...area]);
    const ids = (r: Run) => parse.csv(r.stdout).map((f) => `${f.type}/${f.id}`).sort();
    expect(history.status).toBe(0);
    expect(ids(history).length).toBeGreaterThan(0);
    expect(ids(history)).toEqual(ids(snapshot));
    expect(ids(now)).not.toEqual(ids(history)); // the later versions change the answer
  });

  it('--from gives what changed: the difference of osmium time-filter\'s snapshots at the two moments, in every format', { timeout: 300_000 }, async (ctx) => {
    if (!existsSync(join(dir, 'malta-history.osh.pbf'))) ctx.skip();
    const query = ['--near', '35.8989,14.5146', '--radius', '1000', 'amenity=cafe or amenity=restaurant'];
    /** Each match of a GeoJSON answer: its properties and geometry as text, by type/id. */
    const features = (r: Run) => {
      expect(r.status, r.stderr).toBe(0);
      const all = (JSON.parse(r.stdout) as GeoJSON.FeatureCollection).features;
      return new Map(all.map((f) => [`${f.properties!.osm_type}/${f.properties!.osm_id}`, f]));
    };
    const before = features(await cli(['query', join(dir, 'malta-2024-06-01.osm.pbf'), ...query, '--format', 'geojson']));
    const after = features(await cli(['query', join(dir, 'malta-2025-01-15.osm.pbf'), ...query, '--format', 'geojson']));
    // Each later version in the fixture changes the tags or the place: a match of both moments
    // that differs is modified, one that is the same is unchanged.
    const same = (a: GeoJSON.Feature, b: GeoJSON.Feature) => JSON.stringify([a.properties, a.geometry]) === JSON.stringify([b.properties, b.geometry]);
    const want = new Map<string, string>();
    for (const [key, f] of after) if (!before.has(key)) want.set(key, 'created');
    else if (!same(before.get(key)!, f)) want.set(key, 'modified');
    for (const key of before.keys()) if (!after.has(key)) want.set(key, 'deleted');
    expect(new Set(want.values())).toEqual(new Set(['modified', 'deleted']));

    const history = join(dir, 'malta-history.osh.pbf');
    const moments = ['--from', '2024-06-01', '--at', '2025-01-15'];
    const changed = features(await cli(['query', history, ...moments, ...query, '--format', 'geojson']));
    const byClass = (entries: Iterable<[string, string]>) => [...entries].sort().map(([k, v]) => `${k} ${v}`);
    expect(byClass([...changed].map(([key, f]) => [key, f.properties!.change]))).toEqual(byClass(want));
    for (const [key, f] of changed) if (f.properties!.change === 'deleted') expect(f.geometry, `${key} where it was`).toEqual(before.get(key)!.geometry);
    const csv = await cli(['query', history, ...moments, ...query, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^osm_type,osm_id,lat,lon,geometry,problem,change,/);
    // The first class word of a row is its change column's (after the geometry and problem).
    const rows = csv.stdout.trimEnd().split('\r\n').slice(1);
    expect(byClass(rows.map((row) => [row.split(',').slice(0, 2).join('/'), /,(created|modified|deleted),/.exec(row)![1]]))).toEqual(byClass(want));
    const text = await cli(['query', history, ...moments, ...query]);
    expect(text.stdout.match(/^meta:change: \w+$/gm)?.length).toBe(want.size);
    // A file of one version per element cannot say what changed.
    const plain = await cli(['query', join(dir, 'malta-now.osm.pbf'), ...moments, ...query]);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/needs a history file/);
  });
});

describe('exit codes and messages', () => {
  it('a bad query: 1, with the column', { timeout: SLOW }, async () => {
    const run = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), 'amenity=(']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^pbf-explorer: error: invalid query: syntax error at column 9/);
    expect(run.stdout).toBe('');
  });

  it('a query that nests too deep: 1, naming the limit (not a Wasm trap)', { timeout: SLOW }, async () => {
    const run = await cli(['query', join(DATA_DIR, 'malta.osm.pbf'), `${'not '.repeat(5_000)}amenity=cafe`]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('pbf-explorer: error: invalid query: syntax error at column 401: the query nests deeper than 100 levels of "not" and parentheses\n');
  });

  it('control sequences in a file (header, keys, values) are printed escaped, in every format and in info', { timeout: SLOW }, async () => {
    // fixtures::terminal_traps: ESC, BEL, OSC 0/8/52, a C1 CSI and a bare CR in the header and tags.
    const file = resolve(__dirname, '../../test-results/fixtures/terminal-traps.osm.pbf');
    const raw = /[\x00-\x08\x0b\x0c\x0e-\x1d\x1f\x7f-\x9f]|\r(?!\n)/;
    const runs = [await cli(['info', file]), await cli(['info', '--json', file])];
    for (const format of ['text', 'geojson', 'geojsonseq', 'csv']) runs.push(await cli(['query', file, '--format', format, 'amenity=cafe']));
    for (const run of runs) {
      expect(run.status).toBe(0);
      expect(run.stdout).not.toMatch(raw);
      expect(run.stderr).not.toMatch(raw);
    }
    expect(runs[0].stdout).toContain('\\u001b]0;title\\u0007writer\\u001b[2J');
    expect(runs[2].stdout).toContain('name: \\u001bc\\u001b]0;pwned\\u0007Kahvila');
    expect(runs[2].stdout).toContain('description: fake\\nOK');
    // In JSON the escapes mean the same characters: the data is exact.
    const props = JSON.parse(runs[3].stdout).features[0].properties;
    expect(props['tag:note\x1b]52;c;ZWNobyBwd25lZA==\x07'] ?? props['note\x1b]52;c;ZWNobyBwd25lZA==\x07']).toBe('\x9b31mred');
    expect(JSON.parse(runs[1].stdout).header.source).toBe('\x1b]52;c;ZWNobyBwd25lZA==\x07');
  });

  it('a URL with a password: 1, refused without repeating it', async () => {
    const run = await cli(['query', 'http://user:s3cret@127.0.0.1:9/x.osm.pbf', 'amenity=cafe']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('pbf-explorer: error: a URL with a user name or password in it is refused (127.0.0.1:9): give the file\'s address without them\n');
  });

  it('tags of megabytes are written whole, in every format (pieces bounded by bytes, not by a count of matches)', { timeout: 300_000 }, async () => {
    // fixtures: huge_tags: 20 cafés named with 30 MB each and one with 100 000 tags.
    const file = resolve(__dirname, '../../test-results/fixtures/huge-tags.osm.pbf');
    for (const [format, separator, records] of [['csv', '\r\n', 22], ['geojsonseq', '\x1e', 21], ['text', 'meta:id: ', 21], ['geojson', '"type":"Feature"', 21]] as const) {
      const child = spawn(process.execPath, [CLI, 'query', file, '--near', '60.1699,24.9384', '--format', format, 'amenity=cafe']);
      let bytes = 0;
      let found = 0;
      let carry = '';
      child.stdout.setEncoding('latin1');
      child.stdout.on('data', (chunk: string) => {
        bytes += chunk.length;
        const text = carry + chunk;
        found += text.split(separator).length - 1;
        carry = text.slice(-(separator.length - 1) || text.length);
      });
      const err: Buffer[] = [];
      child.stderr.on('data', (b) => err.push(b));
      const status = await new Promise((done) => child.on('close', done));
      expect(Buffer.concat(err).toString(), format).toBe('');
      expect(status).toBe(0);
      expect(bytes, format).toBeGreaterThan(20 * 30_000_000);
      expect(found, format).toBe(records);
    }
  });

  it('a missing file: 1', async () => {
    const run = await cli(['query', '/no/such/file.osm.pbf', 'amenity=cafe']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('pbf-explorer: error: cannot open /no/such/file.osm.pbf: no such file\n');
  });

  it('a corrupt file: 1, naming the blob and its byte offset', { timeout: SLOW }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pbf-cli-'));
    try {
      const bytes = readFileSync(join(DATA_DIR, 'malta.osm.pbf'));
      // garbage in the middle of a Blob's zlib data (4 MB into the file is inside one)
      bytes.fill(0x55, 4_000_000, 4_000_400);
      writeFileSync(join(dir, 'corrupt.osm.pbf'), bytes);
      const run = await cli(['query', join(dir, 'corrupt.osm.pbf'), '--near', '35.8989,14.5146', 'amenity=cafe']);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^pbf-explorer: error: blob #\d+ at byte \d+: /);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('bad usage: 2, with the usage', async () => {
    for (const args of [[], ['frob'], ['query'], ['query', 'x.osm.pbf'], ['query', 'x.osm.pbf', '--near', '91,0', 'a'], ['query', 'x.osm.pbf', '--format', 'xml', 'a'], ['query', 'x.osm.pbf', '--at', 'yesterday', 'a'], ['osmar', '1', '2', '3', 'a=b']]) {
      const run = await cli(args);
      if (args.length === 0) {
        expect(run.status).toBe(0); // no command: the usage, as --help
        expect(run.stdout).toContain('Usage: pbf-explorer');
        continue;
      }
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^pbf-explorer: .+\n\nUsage: pbf-explorer/);
    }
  });

  it('--help for each command', async () => {
    for (const command of ['query', 'osmar', 'info', 'index']) {
      const run = await cli([command, '--help']);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`Usage: pbf-explorer ${command}`);
    }
  });
});

describe('info, index, and a URL', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startLocalServer>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pbf-cli-'));
    copyFileSync(join(DATA_DIR, 'malta.osm.pbf'), join(dir, 'malta.osm.pbf'));
    server = await startLocalServer(dir);
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true });
  });

  it('info: the counts libosmium gives, as text and JSON', { timeout: SLOW }, async () => {
    const counts = JSON.parse(readFileSync(join(DATA_DIR, 'expected', 'malta.counts.json'), 'utf8'));
    const json = JSON.parse((await cli(['info', join(dir, 'malta.osm.pbf'), '--json'])).stdout);
    expect(json.facts.counts).toMatchObject({ nodes: counts.nodes, ways: counts.ways, relations: counts.relations });
    const text = (await cli(['info', join(dir, 'malta.osm.pbf')])).stdout;
    expect(text).toContain(`Nodes: ${counts.nodes.toLocaleString('en-US')} (ids `);
    expect(text).toMatch(/^Writing program: osmium\//m);
  });

  it('index, then query: the same answers, and a corrupt index is named and not used', { timeout: SLOW }, async () => {
    const file = join(dir, 'malta.osm.pbf');
    const q = QUERIES.find((x) => x.expected === 'malta.restaurant-cuisine-500m.json')!;
    const args = ['query', file, ...areaArgs(q), '--format', 'csv', ...q.q.split(' ')];
    const without = await cli(args);
    const index = await cli(['index', file]);
    expect(index.status).toBe(0);
    expect(index.stdout).toMatch(/malta\.osm\.pbf\.idx: \d+ bytes \(0\.\d+ % of the file\)/);
    const indexed = await cli(args);
    expect(indexed.stderr).toBe('');
    expect(indexed.stdout).toBe(without.stdout);
    expectAnswer(parse.csv(indexed.stdout), q);
    const idx = readFileSync(`${file}.idx`);
    idx[idx.length >> 1] ^= 0xff;
    writeFileSync(`${file}.idx`, idx);
    const refused = await cli(args);
    expect(refused.stderr).toMatch(/not using the index beside .*malta\.osm\.pbf \(.*\): reading the whole file/);
    expect(refused.stdout).toBe(without.stdout);
    rmSync(`${file}.idx`);
  });

  it("a look-alike's FILE.idx (another file's index, the same identity) is given up at its first blob that differs: the file's own answer", { timeout: SLOW }, async () => {
    const real = join(FIXTURE_DIR, 'malta.raw.osm.pbf');
    const fake = join(dir, 'malta.raw.osm.pbf');
    writeFileSync(fake, lookAlike(readFileSync(real)));
    const args = (file: string) => ['query', file, '--format', 'csv', 'amenity=cafe'];
    const whole = await cli([...args(fake), '--no-index']);
    expect((await cli(['index', real, '--out', `${fake}.idx`])).status).toBe(0);
    const byReal = await cli(args(fake));
    expect(byReal.stderr).toMatch(/not using the index beside .*malta\.raw\.osm\.pbf \(the blob index does not match the file: blob \d+ at byte \d+ is not the one indexed\): reading the whole file/);
    expect(byReal.stdout).toBe(whole.stdout);
    expect(byReal.stdout.split('\n').length).toBeLessThan((await cli([...args(real), '--no-index'])).stdout.split('\n').length);
    rmSync(`${fake}.idx`);
  });

  it('a URL, read with Range requests', { timeout: SLOW }, async () => {
    const q = QUERIES.find((x) => x.expected === 'malta.restaurant-bbox.json')!;
    const run = await cli(['query', `${server.origin}/malta.osm.pbf`, ...areaArgs(q), '--format', 'geojson', q.q]);
    expect(run.status).toBe(0);
    expectAnswer(parse.geojson(run.stdout), q);
  });

  it('a URL whose stream is cut half-way: resumed at the byte, the same answer', { timeout: SLOW }, async () => {
    const faults = await startFaultServer(DATA_DIR);
    try {
      const q = QUERIES.find((x) => x.expected === 'malta.restaurant-bbox.json')!;
      const sent = async (mode: string) => {
        const run = await cli(['query', `${faults.origin}/cli-${mode}/${mode}/malta.osm.pbf`, ...areaArgs(q), '--format', 'geojson', q.q]);
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expectAnswer(parse.geojson(run.stdout), q);
        return (await fetch(`${faults.origin}/cli-${mode}/bytes`)).json();
      };
      const [clean, cut] = [await sent('clean'), await sent('cut-stream-once')];
      // One request more than the same read uncut: the stream, resumed after the cut.
      expect(cut.requests).toBe(clean.requests + 1);
    } finally {
      await faults.close();
    }
  });
});

describe('optimize', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pbf-cli-optimize-'));
  });
  afterAll(() => rmSync(dir, { recursive: true }));

  it("writes the file grouped by place with its index; every listed query on it gives libosmium's answer, locally and over HTTP, and a corrupt index is not used", { timeout: 300_000 }, async () => {
    const out = join(dir, 'malta-by-place.osm.pbf');
    const run = await cli(['optimize', join(DATA_DIR, 'malta.osm.pbf'), out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/malta-by-place\.osm\.pbf: \d+ bytes in \d+ blobs; .*malta-by-place\.osm\.pbf\.idx: \d+ bytes/);
    expect(existsSync(`${out}.idx`)).toBe(true);
    const faults = await startFaultServer(dir);
    try {
      for (const q of QUERIES.filter((x) => x.file === 'malta.osm.pbf')) {
        const args = [...areaArgs(q), '--format', 'geojson', ...q.q.split(' ')];
        for (const target of [out, `${faults.origin}/cli-optimize/clean/malta-by-place.osm.pbf`]) {
          const answer = await cli(['query', target, ...args]);
          expect(answer.stderr, `${q.q} on ${target}`).toBe('');
          expectAnswer(parse.geojson(answer.stdout), q);
        }
      }
      const served = await (await fetch(`${faults.origin}/cli-optimize/bytes`)).json();
      expect(served.requests).toBeGreaterThan(0);
      // A city's query fetches the index's head and the pages of its area, not the whole index.
      const cafe = QUERIES.find((x) => x.expected === 'malta.cafe-1000m.json')!;
      const paged = await cli(['query', `${faults.origin}/cli-paged/clean/malta-by-place.osm.pbf`, ...areaArgs(cafe), '--format', 'geojson', cafe.q]);
      expectAnswer(parse.geojson(paged.stdout), cafe);
      const pagedServed = await (await fetch(`${faults.origin}/cli-paged/bytes`)).json();
      const indexSize = readFileSync(`${out}.idx`).length;
      expect(pagedServed.indexBytes).toBeGreaterThan(0);
      expect(pagedServed.indexBytes, `index bytes sent of ${indexSize}`).toBeLessThan(indexSize * 0.5);
      // A corrupt index beside it: named, not used, and the answer still right.
      const idx = readFileSync(`${out}.idx`);
      idx[idx.length >> 1] ^= 0xff;
      writeFileSync(`${out}.idx`, idx);
      const q = QUERIES.find((x) => x.expected === 'malta.cafe-1000m.json')!;
      const refused = await cli(['query', out, ...areaArgs(q), '--format', 'geojson', q.q]);
      expect(refused.stderr).toMatch(/not using the index beside .*malta-by-place\.osm\.pbf \(.*\): reading the whole file/);
      expectAnswer(parse.geojson(refused.stdout), q);
    } finally {
      await faults.close();
    }
    const refusedUsage = await cli(['optimize', join(DATA_DIR, 'malta.osm.pbf')]);
    expect(refusedUsage.status).toBe(2);
  });
});
