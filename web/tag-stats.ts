/**
 * Tag statistics of the answer, as taginfo shows them for the planet: counts by element type,
 * the most frequent keys, and for a chosen key its most frequent values; a click on a value adds
 * `KEY=VALUE` to the query. Keys and values are untrusted text: set as text only.
 */
import type { TagStats } from '../workers/types';

/** `KEY=VALUE` as the query language writes it, quoting what a bare word cannot hold. */
export function tagCondition(key: string, value: string): string {
  const word = (s: string) => (/^[\p{L}\p{N}:_\-./]+$/u.test(s) ? s : `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return `${word(key)}=${word(value)}`;
}

export class TagStatsView {
  private key: string | null = null;

  /**
   * @param load fetches the statistics with the values of `key` (empty: none).
   * @param onAdd called with `KEY=VALUE` when a value is clicked.
   */
  constructor(
    private root: HTMLElement,
    private load: (key: string) => Promise<TagStats>,
    private onAdd: (condition: string) => void,
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
      parts.push(this.caption(`Values of ${key} (click one to add it to the query)`), this.list(stats.values, 'stats-value', (v) => this.onAdd(tagCondition(key, v))));
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

  private list(entries: [string, number][], testid: string, onClick: (text: string) => void): HTMLElement {
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
      ul.append(li);
    }
    return ul;
  }
}
