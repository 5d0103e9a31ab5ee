/**
 * "Colour by key" (`style=KEY`): the map colours the matches by their values of one tag key,
 * the most frequent values each in a colour of its own, with a legend of those values and their
 * counts. Values are untrusted text: set as text only.
 */
import type { StyleClasses } from '../workers/types';
import { STYLE_COLOURS } from './map-view';

export class StyleByKey {
  /**
   * @param classes asks the query worker for the answer's classes by a key.
   * @param draw colours the map by the classes' features (null: by type again).
   */
  constructor(
    private readonly input: HTMLInputElement,
    private readonly legend: HTMLElement,
    private readonly classes: (key: string) => Promise<StyleClasses>,
    private readonly draw: (features: number[] | null) => Promise<void>,
  ) {}

  /** The key the map is coloured by ('' for none). */
  get key(): string {
    return this.input.value.trim();
  }

  set key(key: string) {
    this.input.value = key;
  }

  /** Colours the map by the key now in the field (none: by type) and draws its legend. */
  async apply(): Promise<void> {
    const key = this.key;
    const classes = key ? await this.classes(key) : null;
    await this.draw(classes?.features ?? null);
    this.legend.hidden = classes === null;
    if (!classes) return this.legend.replaceChildren();
    // Class i is drawn in STYLE_COLOURS[i]: the values, then other values, then no such key.
    const entries: [string, number][] = [...classes.values, ['other values', classes.other], [`no ${key}`, classes.none]];
    this.legend.replaceChildren(
      ...entries.map(([text, count], i) => {
        const li = document.createElement('li');
        const dot = document.createElement('i');
        dot.className = 'dot';
        dot.style.background = STYLE_COLOURS[i];
        li.dataset.testid = 'style-value';
        li.append(dot, `${text} (${count.toLocaleString('en')})`);
        return li;
      }),
    );
  }
}
