/**
 * `pbf-explorer sql --engine sedona`: the printed Spark SQL, run on local Spark with Apache
 * Sedona (tests/python/sedona_run.py, one Spark session for all programs), answers every query
 * of tests/answers/language and the polygon queries of tests/answers/areas with exactly
 * libosmium's elements, and its way geometries equal those of our GeoJSON export; what Spark
 * reads otherwise is refused with the reason; tag text is a Spark string literal, never SQL.
 *
 * Sedona 1.8.0's reader misreads a PrimitiveBlock holding several PrimitiveGroups (the last
 * block of helsinki.osm.pbf, written by Osmosis, holds DenseNodes, ways and relations: it gives
 * that block's nodes three times and none of its ways or relations), so the programs read the
 * same elements as written by `osmium cat` (a group a block), as README tells its users to do.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, PYTHON } from '../e2e/data';
import { CASES, cli, expectSameAnswer, writeBoth, type Compared } from './sql-engines';

const RUN = resolve(__dirname, '../python/sedona_run.py');
const dir = mkdtempSync(join(tmpdir(), 'pbf-explorer-sedona-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The runner's summary of each case, by name (Spark starts once for all of them). */
const compared = new Map<string, Compared>();

describe('sql --engine sedona', () => {
  beforeAll(() => {
    const data = join(dir, 'data');
    mkdirSync(data);
    execFileSync('osmium', ['cat', '-o', join(data, 'helsinki.osm.pbf'), join(DATA_DIR, 'helsinki.osm.pbf')]);
    symlinkSync(join(DATA_DIR, 'malta.osm.pbf'), join(data, 'malta.osm.pbf'));
    const runs = CASES.map((c) => writeBoth('sedona', c, dir, data));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify(runs));
    const run = spawnSync(PYTHON, [RUN, manifest], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(run.status, run.stderr.slice(-4000)).toBe(0);
    (JSON.parse(run.stdout) as Compared[]).forEach((r, i) => compared.set(CASES[i].name, r));
  }, 1_200_000);

  for (const c of CASES) {
    it(c.title, () => expectSameAnswer(c, compared.get(c.name)!));
  }

  it('refuses what Spark reads otherwise, with the reason', () => {
    const refused = (args: string[]) => cli(['sql', '--engine', 'sedona', join(DATA_DIR, 'malta.osm.pbf'), ...args]);
    const relation = refused(['--in', 'relation/7510580', 'amenity']);
    expect(relation.status).toBe(1);
    expect(relation.stderr).toMatch(/Spark SQL.*outline of relation 7510580.*--poly/);
    const regex = refused(['name~"[[:upper:]]"']);
    expect(regex.status).toBe(1);
    expect(regex.stderr).toContain('java.util.regex');
    expect(regex.stdout).toBe('');
  });

  it("writes tag text as Spark string literals: a quote or backslash in a value cannot end the string", () => {
    const program = cli(['sql', '--engine', 'sedona', '/data/x.osm.pbf', `name="x\\\\'); DROP TABLE t; --"`]);
    expect(program.status, program.stderr).toBe(0);
    expect(program.stdout).toContain(`tags['name'] = 'x\\\\\\'); DROP TABLE t; --'`);
  });
});
