/** The list of matches beside the map; a click flies to the match and opens its tags. */
import { matchLabel } from './popup';
import type { Match } from '../workers/types';

/** More rows than this make the page slow and nobody reads them; the map and export have all. */
const MAX_ROWS = 1000;

export class ResultList {
  private shown: Match[] = [];

  constructor(private list: HTMLOListElement, private note: HTMLElement, onPick: (m: Match) => void) {
    list.addEventListener('click', (e) => {
      const li = (e.target as HTMLElement).closest('li');
      const index = li ? Number(li.dataset.index) : NaN;
      if (Number.isInteger(index) && this.shown[index]) onPick(this.shown[index]);
    });
  }

  /** Shows the matches (sorted by label), capped at {@link MAX_ROWS} rows. */
  render(matches: Match[]): void {
    this.shown = matches.slice(0, MAX_ROWS);
    const rows = this.shown.map((m, i) => {
      const li = document.createElement('li');
      li.append(matchLabel(m)); // untrusted text, set as text: never innerHTML
      li.dataset.index = String(i);
      li.dataset.testid = 'result-item';
      li.dataset.osmType = m.type;
      li.dataset.osmId = String(m.id);
      return li;
    });
    this.list.replaceChildren(...rows);
    this.note.textContent = matches.length > MAX_ROWS ? `Showing the first ${MAX_ROWS} of ${matches.length}; export for all.` : '';
  }
}
