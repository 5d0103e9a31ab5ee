/**
 * Tag statistics of the answer, as taginfo shows them for the planet: counts by element type,
 * the most frequent keys, and for a chosen key its most frequent values; a click on a value
 * refines the query to it, or excludes it ({@link refine}). Keys and values are untrusted text:
 * set as text only.
 */
import type { TagStats } from '../workers/types';

/** `KEY=VALUE` as the query language writes it, quoting what a bare word cannot hold. */
export function tagCondition(key: string, value: string): string {
  const word = (s: string) => (/^[\p{L}\p{N}:_\-./]+$/u.test(s) ? s : `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return `${word(key)}=${word(value)}`;
}

/**
 * `query` refined by a condition of the statistics: `(QUERY) and CONDITION`, or with `exclude`
 * `(QUERY) and not CONDITION`. The query is bracketed whole: `and` binds tighter than `or`
 * (docs/query-language.md), so `a or b c` would keep every `a`.
 */
export function refine(query: string, condition: string, exclude: boolean): string {
  const q = query.trim();
  const refinement = exclude ? `not ${condition}` : condition;
  return q ? `(${q}) and ${refinement}` : refinement;
}

export class TagStatsView {
  private key: string | null = null;

  /**
   * @param load fetches the statistics with the values of `key` (empty: none).
   * @param onRefine called with `KEY=VALUE` when a value is clicked, and whether to exclude it.
   */
  constructor(
    private root: HTMLElement,
    private load: (key: string) => Promise<TagStats>,
    private onRefine: (condition: string, exclude: boolean) => void,
  ) {}

  /** Clears the view (a new query starts). */
  clear(): void {
    this.key = null;
    this.root.querySelector('.stats-body')?.replaceChildren();
  }

  /** Loads and shows the statistics of the answer now in the worker; resolves with them. */
  async show(): Promise<TagStats> {
    const stats = await this.load(this.key ?? '');
    const body = this.root.querySelector('.stats-body')!;
    const [n, w, r] = stats.types;
    const types = document.createElement('p');
    types.dataset.testid = 'stats-types';
    types.textContent = `${n} nodes · ${w} ways · ${r} relations`;
    const keys = this.list(stats.keys, 'stats-key', (k) => {
      this.key = k;
      void this.show();
    });
    const parts: Node[] = [types, this.caption('Most frequent keys (click one for its values)'), keys];
    if (stats.long_keys > 0) parts.push(this.caption(`${stats.long_keys} ${stats.long_keys === 1 ? 'key' : 'keys'} over 200 bytes not listed`));
    if (this.key !== null) {
      const key = this.key;
      const values = this.list(stats.values, 'stats-value', (v) => this.onRefine(tagCondition(key, v), false), (v) => this.onRefine(tagCondition(key, v), true));
      parts.push(this.caption(`Values of ${key} (click one to keep only it, or exclude it)`), values);
      if (stats.long_values > 0) parts.push(this.caption(`${stats.long_values} ${stats.long_values === 1 ? 'value' : 'values'} over 200 bytes not listed`));
    }
    body.replaceChildren(...parts);
    return stats;
  }

  private caption(text: string): HTMLElement {
    const p = document.createElement('p');
    p.textContent = text;
    return p;
  }

  /** A list of buttons, one per entry; with `onExclude`, each with an exclude button beside it. */
  private list(entries: [string, number][], testid: string, onClick: (text: string) => void, onExclude?: (text: string) => void): HTMLElement {
    const ul = document.createElement('ul');
    for (const [text, count] of entries) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.testid = testid;
      b.dataset.text = text;
      b.textContent = `${text} (${count})`;
      b.addEventListener('click', () => onClick(text));
      li.append(b);
      if (onExclude) {
        const exclude = document.createElement('button');
        exclude.type = 'button';
        exclude.dataset.testid = 'stats-exclude';
        exclude.dataset.text = text;
        exclude.className = 'exclude';
        exclude.textContent = 'exclude';
        exclude.setAttribute('aria-label', `exclude ${text}`);
        exclude.addEventListener('click', () => onExclude(text));
        li.append(' ', exclude);
      }
      ul.append(li);
    }
    return ul;
  }
}
