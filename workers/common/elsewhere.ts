/**
 * The program of another tool that answers a query as pbf-explorer does, for the page's "Run
 * elsewhere" panel (in the query worker) and `pbf-explorer sql` alike. The translations are the
 * crate's (`elsewhere/`: osmium, DuckDB, Sedona, Overpass); this writes osmium's as a shell
 * command whose words are quoted (tag text is untrusted: it never runs as shell syntax). The
 * decoder's Wasm module must be started in this thread.
 */
import { duckdbSql, osmiumTagsFilter, overpassQl, sedonaSql } from '../../wasm/pkg/pbf_explorer.js';
import type { Query } from '../types';

/** The engines a program is written for. */
export const ENGINES = ['duckdb', 'sedona', 'osmium', 'overpass'] as const;

/** Each engine's name in a refusal. */
const TOOL: Record<Engine, string> = { duckdb: 'DuckDB', sedona: 'Spark SQL (Apache Sedona)', osmium: 'osmium tags-filter', overpass: 'Overpass QL' };
export type Engine = (typeof ENGINES)[number];

/** `word` single-quoted for a POSIX shell: nothing in it is read as syntax. */
export function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The program answering `query` on `file` (a path or URL as the engine reads it): DuckDB SQL
 * over `ST_ReadOSM`, Spark SQL over Sedona's `osmpbf` reader, Overpass QL (for a server's data,
 * not the file), or the `osmium tags-filter` command (the whole file: the matched elements
 * alone, `--omit-referenced`, written to `answer.osm.pbf`), ending with a line break.
 * @throws Error with the syntax error, or the reason the engine cannot answer the query as
 *   pbf-explorer does (osmium: any area, `and`, `not`, regular expressions; DuckDB, Spark and
 *   Overpass: a relation's outline, a history moment, a regular expression their engine reads
 *   otherwise; Overpass also a polygon, `inside=all`).
 */
export function programFor(engine: Engine, file: string, query: Query): string {
  try {
    if (engine === 'duckdb') return duckdbSql(JSON.stringify(query), file);
    if (engine === 'sedona') return sedonaSql(JSON.stringify(query), file);
    if (engine === 'overpass') return overpassQl(JSON.stringify(query));
    if (query.area !== 'everywhere' || query.inside === 'all') throw new Error("it answers the whole file (osmium extract's rules for an area are not pbf-explorer's)");
    const expressions = osmiumTagsFilter(query.q);
    return `${['osmium', 'tags-filter', '--omit-referenced', '-o', 'answer.osm.pbf', shellQuoted(file), ...expressions.map(shellQuoted)].join(' ')}\n`;
  } catch (e) {
    throw new Error(`${TOOL[engine]} cannot answer this query as pbf-explorer does: ${(e as Error).message}`);
  }
}
