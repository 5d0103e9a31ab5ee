/**
 * `pbf-explorer sql --engine duckdb`: the printed program, run by DuckDB with its spatial
 * extension (tests/python/duckdb_run.py), answers every query of tests/answers/language and the
 * polygon queries of tests/answers/areas with exactly libosmium's elements, and its way
 * geometries equal those of our GeoJSON export; what DuckDB cannot say the same way is refused
 * with the reason; tag text is an SQL literal, never SQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, LANGUAGE_ANSWERS, PYTHON } from '../e2e/data';

const CLI = resolve(__dirname, '../../cli/pbf-explorer.mjs');
const RUN = resolve(__dirname, '../python/duckdb_run.py');
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-duckdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answer {
  file: string;
  q: string;
  near?: [number, number];
  radius?: number;
  bbox?: number[];
  area?: { polygon?: number[][][][]; relation?: number };
  inside: 'any' | 'all';
  nodes: number[];
  ways: number[];
  relations: number[];
}
const AREA_ANSWERS: Answer[] = JSON.parse(readFileSync(resolve(__dirname, '../answers/areas/answers.json'), 'utf8'));

/** The command line's area options for an answer of the answer files. */
function areaArgs(a: Answer, name: string): string[] {
  const args = a.inside === 'all' ? ['--inside', 'all'] : [];
  if (a.near) args.push('--near', a.near.join(','), '--radius', String(a.radius));
  if (a.bbox) args.push('--bbox', a.bbox.join(','));
  if (a.area?.relation) args.push('--in', `relation/${a.area.relation}`);
  if (a.area?.polygon) {
    const file = join(dir, `${name}.geojson`);
    writeFileSync(file, JSON.stringify({ type: 'MultiPolygon', coordinates: a.area.polygon }));
    args.push('--poly', file);
  }
  return args;
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** The program for `a`, run by DuckDB beside our GeoJSON export of the same query. */
function runBoth(a: Answer, name: string) {
  const file = join(DATA_DIR, a.file);
  const program = cli(['sql', '--engine', 'duckdb', file, ...areaArgs(a, name), a.q]);
  expect(program.status, program.stderr).toBe(0);
  writeFileSync(join(dir, `${name}.sql`), program.stdout);
  const ours = cli(['query', file, ...areaArgs(a, name), '--format', 'geojson', '--out', join(dir, `${name}.ours.geojson`), a.q]);
  expect(ours.status, ours.stderr).toBe(0);
  const run = spawnSync(PYTHON, [RUN, join(dir, `${name}.sql`), join(dir, `${name}.ours.geojson`)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { ids: string[]; ours: string[]; ways: number; waysUnequal: string[]; firstUnequal: unknown[] };
}

const want = (a: Answer) => [...a.nodes.map((id) => `node/${id}`), ...a.ways.map((id) => `way/${id}`), ...a.relations.map((id) => `relation/${id}`)].sort();

describe('sql --engine duckdb', () => {
  LANGUAGE_ANSWERS.forEach((raw, i) => {
    const a = raw as unknown as Answer;
    it(`answers as libosmium does, way geometries as ours: ${a.q} (${a.file}${a.near ? ', circle' : a.bbox ? ', bbox' : ''}${a.inside === 'all' ? ', inside=all' : ''})`, { timeout: 120_000 }, () => {
      const r = runBoth(a, `language-${i}`);
      expect(r.ids).toEqual(want(a));
      expect(r.ids).toEqual(r.ours);
      expect(r.waysUnequal, JSON.stringify(r.firstUnequal)).toEqual([]);
    });
  });

  AREA_ANSWERS.filter((a) => a.area?.polygon).forEach((a, i) => {
    it(`answers a polygon area as libosmium and shapely do: ${a.q} (${a.file}${a.inside === 'all' ? ', inside=all' : ''})`, { timeout: 120_000 }, () => {
      const r = runBoth(a, `area-${i}`);
      expect(r.ids).toEqual(want(a));
      expect(r.waysUnequal, JSON.stringify(r.firstUnequal)).toEqual([]);
    });
  });

  it('ways matched whole-file carry the geometry our export has, polygons by the same area rule', { timeout: 120_000 }, () => {
    const a = { file: 'malta.osm.pbf', q: 'type:way and (building or highway=primary or leisure or natural)', inside: 'any', nodes: [], ways: [], relations: [] } as Answer;
    const r = runBoth(a, 'ways');
    expect(r.ids).toEqual(r.ours);
    expect(r.ways).toBeGreaterThan(20_000);
    expect(r.waysUnequal, JSON.stringify(r.firstUnequal)).toEqual([]);
  });

  it('refuses what DuckDB cannot say the same way, with the reason', () => {
    const refused = (args: string[]) => cli(['sql', '--engine', 'duckdb', join(DATA_DIR, 'malta.osm.pbf'), ...args]);
    const relation = refused(['--in', 'relation/7510580', 'amenity']);
    expect(relation.status).toBe(1);
    expect(relation.stderr).toMatch(/outline of relation 7510580.*--poly/);
    const regex = refused(['name~"\\bSt"']);
    expect(regex.status).toBe(1);
    expect(regex.stderr).toContain('RE2');
    expect(regex.stdout).toBe('');
  });

  it('writes tag text as SQL string literals: a quote in a value cannot end the string', () => {
    const program = cli(['sql', '--engine', 'duckdb', '/data/x.osm.pbf', `name="x'); DROP TABLE t; --"`]);
    expect(program.status, program.stderr).toBe(0);
    expect(program.stdout).toContain(`tags['name'] = 'x''); DROP TABLE t; --'`);
  });
});
