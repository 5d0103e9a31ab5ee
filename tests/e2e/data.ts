/** The shared test data (`../shared/data/`, or `PBF_DATA_DIR`) and the listed queries. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const DATA_DIR = process.env.PBF_DATA_DIR ?? resolve(here, '../../../shared/data');
export const SCREENSHOT_DIR = resolve(here, '../../test-results/screenshots');
/** Broken and hostile PBFs written by `cargo run --example write_fixtures` (scripts/test.sh). */
export const FIXTURE_DIR = resolve(here, '../../test-results/fixtures');
/** The Python of the venv `scripts/setup.sh --tests` makes (DuckDB, pyarrow), and its export checker. */
export const PYTHON = resolve(here, '../../test-results/venv/bin/python');
export const GEOPARQUET_CHECK = resolve(here, '../python/geoparquet_check.py');

/** A query of the data README's table (`tests/queries.json`). */
export interface ListedQuery {
  file: string;
  expected?: string;
  count?: number;
  q: string;
  near?: [number, number];
  radius?: number;
  bbox?: [number, number, number, number];
}

/** The query-language answers libosmium gives on Malta and Helsinki (tests/answers/language/make-answers.py). */
export const LANGUAGE_ANSWERS: { q: string; nodes: number[]; ways: number[]; relations: number[] }[] = JSON.parse(readFileSync(resolve(here, '../answers/language/answers.json'), 'utf8'));

/** libosmium's answer to language query `q` as `type/id` keys (node/1, way/2, relation/3). */
export function languageAnswer(q: string): string[] {
  const a = LANGUAGE_ANSWERS.find((x) => x.q === q)!;
  return [...a.nodes.map((id) => `node/${id}`), ...a.ways.map((id) => `way/${id}`), ...a.relations.map((id) => `relation/${id}`)];
}

export const QUERIES: ListedQuery[] = JSON.parse(readFileSync(resolve(here, '../queries.json'), 'utf8'));

/**
 * The expected answer: `{nodes, ways, relations, count}` from `expected/with-relations/` (count
 * with relations), or just a count.
 */
export function expectedAnswer(q: ListedQuery): { nodes?: number[]; ways?: number[]; relations?: number[]; count: number } {
  if (!q.expected) return { count: q.count! };
  const answer = JSON.parse(readFileSync(join(DATA_DIR, 'expected', 'with-relations', q.expected), 'utf8'));
  return { ...answer, count: answer.count_with_relations };
}

/** The URL search string of a listed query (without `src`). */
export function querySearch(q: ListedQuery): string {
  const area = q.bbox ? `bbox=${q.bbox.join(',')}` : `near=${q.near!.join(',')}&radius=${q.radius}`;
  return `?q=${encodeURIComponent(q.q)}&${area}`;
}
