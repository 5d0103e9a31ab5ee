/**
 * `pbf-explorer sql --engine duckdb`: the printed program, run by DuckDB with its spatial
 * extension (tests/python/duckdb_run.py), answers every query of tests/answers/language and the
 * polygon queries of tests/answers/areas with exactly libosmium's elements, and its way
 * geometries equal those of our GeoJSON export; what DuckDB cannot say the same way is refused
 * with the reason; tag text is an SQL literal, never SQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, PYTHON } from '../e2e/data';
import { CASES, cli, expectSameAnswer, writeBoth, type Compared } from './sql-engines';

const RUN = resolve(__dirname, '../python/duckdb_run.py');
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-duckdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sql --engine duckdb', () => {
  for (const c of CASES) {
    it(c.title, { timeout: 120_000 }, () => {
      const { program, geojson } = writeBoth('duckdb', c, dir);
      const run = spawnSync(PYTHON, [RUN, program, geojson], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(run.status, run.stderr).toBe(0);
      expectSameAnswer(c, JSON.parse(run.stdout) as Compared);
    });
  }

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
