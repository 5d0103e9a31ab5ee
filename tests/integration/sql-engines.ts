/**
 * What the tests of `pbf-explorer sql --engine duckdb|sedona` share: the answers they are held
 * to (tests/answers/language, the polygon queries of tests/answers/areas, a whole-file ways
 * query), the command line's area options for an answer, and each query's program beside our
 * GeoJSON export of it, written into a folder for the engine's runner (tests/python/).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { DATA_DIR, LANGUAGE_ANSWERS } from '../e2e/data';

const CLI = resolve(__dirname, '../../cli/pbf-explorer.mjs');

/** An answer of the answer files (libosmium's elements for a query on a file). */
export interface Answer {
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

/** A query an engine's program is checked on: its name, the answer, and what the check asserts. */
export interface Case {
  name: string;
  title: string;
  answer: Answer;
  /** libosmium's elements are known (else: ours are the reference). */
  libosmium: boolean;
}

/** Every language answer, the polygon area answers, and a whole-file ways query (> 20 000 ways). */
export const CASES: Case[] = [
  ...LANGUAGE_ANSWERS.map((raw, i) => {
    const a = raw as unknown as Answer;
    const where = `${a.file}${a.near ? ', circle' : a.bbox ? ', bbox' : ''}${a.inside === 'all' ? ', inside=all' : ''}`;
    return { name: `language-${i}`, title: `answers as libosmium does, way geometries as ours: ${a.q} (${where})`, answer: a, libosmium: true };
  }),
  ...AREA_ANSWERS.filter((a) => a.area?.polygon).map((a, i) => ({
    name: `area-${i}`,
    title: `answers a polygon area as libosmium and shapely do: ${a.q} (${a.file}${a.inside === 'all' ? ', inside=all' : ''})`,
    answer: a,
    libosmium: true,
  })),
  {
    name: 'ways',
    title: 'ways matched whole-file carry the geometry our export has, polygons by the same area rule',
    answer: { file: 'malta.osm.pbf', q: 'type:way and (building or highway=primary or leisure or natural)', inside: 'any', nodes: [], ways: [], relations: [] },
    libosmium: false,
  },
];

/** The command line's area options for `a` (a polygon is written to `dir` as GeoJSON). */
export function areaArgs(a: Answer, dir: string, name: string): string[] {
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

/** Runs the command line; its status and output. */
export function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/**
 * Writes `engine`'s program for case `c` (`dir/NAME.sql`, on the file of that name in
 * `programData`) and our GeoJSON export of the same query on the shared file
 * (`dir/NAME.ours.geojson`); both paths.
 */
export function writeBoth(engine: string, c: Case, dir: string, programData = DATA_DIR): { program: string; geojson: string } {
  const file = join(DATA_DIR, c.answer.file);
  const area = areaArgs(c.answer, dir, c.name);
  const program = cli(['sql', '--engine', engine, join(programData, c.answer.file), ...area, c.answer.q]);
  expect(program.status, program.stderr).toBe(0);
  const paths = { program: join(dir, `${c.name}.sql`), geojson: join(dir, `${c.name}.ours.geojson`) };
  writeFileSync(paths.program, program.stdout);
  const ours = cli(['query', file, ...area, '--format', 'geojson', '--out', paths.geojson, c.answer.q]);
  expect(ours.status, ours.stderr).toBe(0);
  return paths;
}

/** What a runner says of one program: its ids, ours, and the ways whose geometry differs. */
export interface Compared {
  ids: string[];
  ours: string[];
  ways: number;
  waysUnequal: string[];
  firstUnequal: unknown[];
}

/** libosmium's elements of `a`, as `type/id`, sorted. */
export const want = (a: Answer) => [...a.nodes.map((id) => `node/${id}`), ...a.ways.map((id) => `way/${id}`), ...a.relations.map((id) => `relation/${id}`)].sort();

/** The assertions of case `c` on the runner's summary `r`. */
export function expectSameAnswer(c: Case, r: Compared): void {
  if (c.libosmium) expect(r.ids).toEqual(want(c.answer));
  expect(r.ids).toEqual(r.ours);
  if (!c.libosmium) expect(r.ways).toBeGreaterThan(20_000);
  expect(r.waysUnequal, JSON.stringify(r.firstUnequal)).toEqual([]);
}
