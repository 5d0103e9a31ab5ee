/**
 * The list of matches beside the map, virtualized: every match is reachable by scrolling, but
 * only the rows in view (plus a margin) exist in the DOM. Rows come from the query worker in
 * its stable order (label, then type and id); a click flies to the match and opens its tags.
 */
import { matchLabel } from './popup';
import type { Match } from '../workers/types';

/** Height of one row in CSS pixels (fixed, so a row's position is its index × this). */
const ROW_HEIGHT = 24;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 10;

/** Fetches `count` rows from `start` in the list's order. */
export type RowSource = (start: number, count: number) => Promise<Match[]>;

export class ResultList {
  private count = 0;
  private rows: RowSource = async () => [];
  /** Rows on screen, by index. */
  private shown = new Map<number, Match>();
  private drawQueued = false;
  /** Bumped on every new answer, so rows fetched for an older one are dropped. */
  private generation = 0;

  constructor(private scroller: HTMLElement, private list: HTMLOListElement, onPick: (m: Match) => void) {
    list.addEventListener('click', (e) => {
      const li = (e.target as HTMLElement).closest('li');
      const match = li ? this.shown.get(Number(li.dataset.index)) : undefined;
      if (match) onPick(match);
    });
    scroller.addEventListener('scroll', () => this.refresh(), { passive: true });
  }

  /** Starts a new answer: empty until {@link setCount} says otherwise. */
  reset(rows: RowSource): void {
    this.rows = rows;
    this.generation++;
    this.count = 0;
    this.shown.clear();
    this.list.replaceChildren();
    this.list.style.height = '0px';
    this.scroller.scrollTop = 0;
  }

  /** The answer now has `count` matches: resize and redraw the rows in view. */
  setCount(count: number): void {
    this.count = count;
    this.list.style.height = `${count * ROW_HEIGHT}px`;
    this.refresh();
  }

  /** Redraws the rows in view, at most once per animation frame. */
  refresh(): void {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      void this.draw();
    });
  }

  private async draw(): Promise<void> {
    const generation = this.generation;
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil(this.scroller.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
    const last = Math.min(this.count, first + visible);
    const rows = await this.rows(first, last - first);
    if (generation !== this.generation) return;
    this.shown = new Map(rows.map((m, i) => [first + i, m]));
    const items = rows.map((m, i) => {
      const li = document.createElement('li');
      li.append(matchLabel(m)); // untrusted text, set as text: never innerHTML
      li.value = first + i + 1;
      li.style.top = `${(first + i) * ROW_HEIGHT}px`;
      li.dataset.index = String(first + i);
      li.dataset.testid = 'result-item';
      li.dataset.osmType = m.type;
      li.dataset.osmId = String(m.id);
      return li;
    });
    this.list.replaceChildren(...items);
  }
}
