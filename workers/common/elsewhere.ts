/**
 * The program of another tool that answers a query as pbf-explorer does, for the page's "Run
 * elsewhere" panel (in the query worker) and `pbf-explorer sql` alike. The translations are the
 * crate's (`elsewhere/osmium.rs`, `elsewhere/duckdb.rs`); this writes osmium's as a shell
 * command whose words are quoted (tag text is untrusted: it never runs as shell syntax). The
 * decoder's Wasm module must be started in this thread.
 */
import { duckdbSql, osmiumTagsFilter } from '../../wasm/pkg/pbf_explorer.js';
import type { Query } from '../types';

/** The engines a program is written for. */
export const ENGINES = ['duckdb', 'osmium'] as const;
export type Engine = (typeof ENGINES)[number];

/** `word` single-quoted for a POSIX shell: nothing in it is read as syntax. */
export function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The program answering `query` on `file` (a path or URL as the engine reads it): DuckDB SQL
 * over `ST_ReadOSM`, or the `osmium tags-filter` command (the whole file: the matched elements
 * alone, `--omit-referenced`, written to `answer.osm.pbf`), ending with a line break.
 * @throws Error with the syntax error, or the reason the engine cannot answer the query as
 *   pbf-explorer does (osmium: any area, `and`, `not`, regular expressions; DuckDB: a relation's
 *   outline, a history moment, a regular expression RE2 reads otherwise).
 */
export function programFor(engine: Engine, file: string, query: Query): string {
  try {
    if (engine === 'duckdb') return duckdbSql(JSON.stringify(query), file);
    if (query.area !== 'everywhere' || query.inside === 'all') throw new Error("it answers the whole file (osmium extract's rules for an area are not pbf-explorer's)");
    const expressions = osmiumTagsFilter(query.q);
    return `${['osmium', 'tags-filter', '--omit-referenced', '-o', 'answer.osm.pbf', shellQuoted(file), ...expressions.map(shellQuoted)].join(' ')}\n`;
  } catch (e) {
    const tool = engine === 'duckdb' ? 'DuckDB' : 'osmium tags-filter';
    throw new Error(`${tool} cannot answer this query as pbf-explorer does: ${(e as Error).message}`);
  }
}
