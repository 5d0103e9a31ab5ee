/**
 * `pbf-explorer sql --engine osmium FILE QUERY`: the command of another tool that answers the
 * same query on FILE, printed to run there. The translation is the crate's
 * (`query/elsewhere.rs`); this writes it as a shell command whose words are quoted (tag text is
 * untrusted: it never runs as shell syntax).
 */
import { osmiumTagsFilter } from '../wasm/pkg/pbf_explorer.js';
import { startWasm } from '../workers/node-wasm';

/** `word` single-quoted for a POSIX shell: nothing in it is read as syntax. */
export function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `osmium tags-filter` command answering query text `q` on the whole of `file`: the matched
 * elements alone (`--omit-referenced`), written to `answer.osm.pbf`.
 * @throws Error with the syntax error, or the reason osmium's expressions cannot say the query.
 */
export function osmiumCommand(file: string, q: string): string {
  startWasm();
  let expressions: string[];
  try {
    expressions = osmiumTagsFilter(q);
  } catch (e) {
    throw new Error(`osmium tags-filter cannot answer this query: ${(e as Error).message}`);
  }
  return ['osmium', 'tags-filter', '--omit-referenced', '-o', 'answer.osm.pbf', shellQuoted(file), ...expressions.map(shellQuoted)].join(' ');
}
