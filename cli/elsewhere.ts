/**
 * `pbf-explorer sql --engine ENGINE FILE QUERY`: the program of another tool that answers the
 * same query on FILE (`workers/common/elsewhere.ts`), printed to run there.
 */
import { programFor, type Engine } from '../workers/common/elsewhere';
import { startWasm } from '../workers/node-wasm';
import type { Query } from '../workers/types';

/**
 * The program of `engine` answering `query` on `file`.
 * @throws Error with the syntax error, or the reason the engine cannot answer it the same way.
 */
export function programOf(engine: Engine, file: string, query: Query): string {
  startWasm();
  return programFor(engine, file, query);
}
