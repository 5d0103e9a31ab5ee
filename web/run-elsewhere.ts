/**
 * The "Run elsewhere" panel: the program of another tool (DuckDB SQL over `ST_ReadOSM`, Spark
 * SQL over Apache Sedona's `osmpbf` reader, the `osmium tags-filter` command, or Overpass QL) that answers the last run's query on its file as pbf-explorer
 * does, written by the query worker, with a Copy button; or why that tool cannot.
 */
import type { QueryClient } from './query-client';
import type { Query } from '../workers/types';
import type { Engine } from '../workers/common/elsewhere';

/** The panel in `root` (`#run-elsewhere`), asking `client` for programs. */
export class RunElsewhere {
  private readonly engine: HTMLSelectElement;
  private readonly program: HTMLElement;
  private readonly refused: HTMLElement;
  private readonly copy: HTMLButtonElement;
  private readonly panel: HTMLDetailsElement;
  private last: { query: Query; file: string } | null = null;
  /** Counts requests, so that a late answer for an earlier query is dropped. */
  private asked = 0;

  constructor(root: HTMLDetailsElement, private readonly client: QueryClient) {
    this.panel = root;
    this.engine = root.querySelector('#elsewhere-engine')!;
    this.program = root.querySelector('#elsewhere-program')!;
    this.refused = root.querySelector('#elsewhere-refused')!;
    this.copy = root.querySelector('#elsewhere-copy')!;
    root.addEventListener('toggle', () => void this.update());
    this.engine.addEventListener('change', () => void this.update());
    this.copy.addEventListener('click', () => void navigator.clipboard?.writeText(this.program.textContent ?? ''));
  }

  /** The query of the run that just ended, on `file` (its name, or its URL). */
  show(query: Query, file: string): void {
    this.last = { query, file };
    void this.update();
  }

  /** Writes the program for the last query, when the panel is open. */
  private async update(): Promise<void> {
    if (!this.panel.open || !this.last) return;
    const mine = ++this.asked;
    const answer = await this.client.programFor(this.engine.value as Engine, this.last.query, this.last.file);
    if (mine !== this.asked) return;
    const program = 'program' in answer ? answer.program : '';
    this.program.textContent = program;
    this.program.hidden = !program;
    this.copy.disabled = !program;
    this.refused.textContent = 'refused' in answer ? answer.refused : '';
    this.refused.hidden = !('refused' in answer);
  }
}
