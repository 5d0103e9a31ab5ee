/**
 * The table of matches beside the map, virtualized: every match is reachable by scrolling, but
 * only the rows in view (plus a margin) exist in the DOM. Columns: type, id, name, then tag
 * columns the query worker chooses (the query's keys, then the answer's most frequent keys).
 * Rows come from the query worker in the order it keeps (label, then type and id, unless a
 * column header asked for another), and as the filter keeps them; a click on a row flies to
 * the match and opens its tags, and the selected match's row is marked (the map marks it too).
 * The tag columns shown are the person's to choose (the column chooser); type, id and name stay.
 * Each row ends with links to edit the match in iD and JOSM.
 * Tag values are untrusted: set as text only.
 */
import { editLinks, labelText, standIn } from './popup';
import type { Match } from '../workers/types';

/** Height of one row in CSS pixels (fixed, so a row's position is its index × this). */
const ROW_HEIGHT = 24;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 10;
/**
 * The tallest the list is made, in CSS pixels: browsers cap an element's height (Chromium near
 * 33.5 M px, Firefox near 17.9 M), and 4 million rows would need 100 M. Past it the scrollbar
 * maps its range onto the rows: row positions then follow the scroll (see {@link ResultList.topIndex}).
 */
const MAX_LIST_HEIGHT = 8_000_000;
/** The width of the last column, the edit links. */
const EDIT_COLUMN = '120px';

/** Fetches `count` rows from `start` in the table's order. */
export type RowSource = (start: number, count: number) => Promise<Match[]>;

/** The order asked for by a header: a column and its direction (null column: by label). */
export interface Order {
  column: string | null;
  descending: boolean;
}

export class ResultList {
  private count = 0;
  private rows: RowSource = async () => [];
  /** Rows on screen, by index: each one's match and element (kept across redraws, see {@link draw}). */
  private shown = new Map<number, { match: Match; li: HTMLLIElement }>();
  private drawQueued = false;
  /** Bumped on every new answer or order, so rows fetched for an older one are dropped. */
  private generation = 0;
  private tagColumns: string[] = [];
  /** The answer is a change view: a `change` column follows the name. */
  private changeView = false;
  private order: Order = { column: null, descending: false };
  /** Optional columns (tag keys, `change`) the person turned off in the column chooser. */
  private hidden = new Set<string>();
  /** The selected match (`type/id`), marked wherever its row is drawn. */
  private selected: string | null = null;

  /**
   * @param onPick called with a clicked row's match.
   * @param onOrder called when a header asks for another order; resolves once the worker has it.
   */
  constructor(
    private scroller: HTMLElement,
    private header: HTMLElement,
    private list: HTMLOListElement,
    onPick: (m: Match) => void,
    private onOrder: (order: Order) => Promise<void>,
    private chooser: HTMLElement | null = null,
  ) {
    const pick = (e: Event) => {
      const li = (e.target as HTMLElement).closest('li');
      const match = li ? this.shown.get(Number(li.dataset.index))?.match : undefined;
      if (match) onPick(match);
    };
    list.addEventListener('click', pick);
    // A row has the focus in turn (Tab): Enter or Space opens it as a click does.
    list.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && (e.target as HTMLElement).matches('li')) {
        e.preventDefault();
        pick(e);
      }
    });
    header.addEventListener('click', (e) => {
      const button = (e.target as HTMLElement).closest('button');
      if (button?.dataset.column) void this.sortBy(button.dataset.column);
    });
    scroller.addEventListener('scroll', () => this.refresh(), { passive: true });
    chooser?.addEventListener('change', (e) => {
      const box = e.target as HTMLInputElement;
      if (box.checked) this.hidden.delete(box.value);
      else this.hidden.add(box.value);
      this.drawHeader();
      this.generation++;
      this.refresh();
    });
    this.drawChooser();
    this.drawHeader();
  }

  /** The filter changed: the list now has `count` rows, shown from the top. */
  refilter(count: number): void {
    this.generation++;
    this.scroller.scrollTop = 0;
    this.setCount(count);
  }

  /** Marks match `type`/`id` as the selected one (null: none) in the rows drawn, now and later. */
  select(match: Pick<Match, 'type' | 'id'> | null): void {
    this.selected = match ? `${match.type}/${match.id}` : null;
    for (const { match: m, li } of this.shown.values()) li.classList.toggle('selected', `${m.type}/${m.id}` === this.selected);
  }

  /** Scrolls the table so that row `index` is in view (in its middle when it was not). */
  scrollToRow(index: number): void {
    const natural = this.count * ROW_HEIGHT;
    const view = this.scroller.clientHeight;
    // Past MAX_LIST_HEIGHT the scroll range maps onto the rows (see topIndex).
    const range = MAX_LIST_HEIGHT - view;
    const top = natural <= MAX_LIST_HEIGHT ? index * ROW_HEIGHT : (index / Math.max(1, (natural - view) / ROW_HEIGHT)) * range;
    const headerHeight = this.header.offsetHeight;
    if (top < this.scroller.scrollTop + headerHeight || top + ROW_HEIGHT > this.scroller.scrollTop + view) this.scroller.scrollTop = Math.max(0, top - view / 2);
    this.refresh();
  }

  /** Starts a new answer: empty until {@link setCount} says otherwise, in label order. */
  reset(rows: RowSource): void {
    this.rows = rows;
    this.generation++;
    this.count = 0;
    this.order = { column: null, descending: false };
    this.shown.clear();
    this.list.replaceChildren();
    this.list.style.height = '0px';
    this.scroller.scrollTop = 0;
    this.drawHeader();
  }

  /** The answer now has `count` matches: resize and redraw the rows in view. */
  setCount(count: number): void {
    this.count = count;
    this.list.style.height = `${Math.min(count * ROW_HEIGHT, MAX_LIST_HEIGHT)}px`;
    this.refresh();
  }

  /** Sets the tag columns after type, id and name (and `change` first in a change view). */
  setColumns(keys: string[], changeView = false): void {
    this.tagColumns = keys;
    this.changeView = changeView;
    this.drawChooser();
    this.drawHeader();
    this.generation++;
    this.refresh();
  }

  /** The optional columns: `change` in a change view, then the tag columns. */
  private optional(): string[] {
    return [...(this.changeView ? ['change'] : []), ...this.tagColumns];
  }

  /** The columns shown: type, id and name, then the optional ones not turned off. */
  private columns(): string[] {
    return ['type', 'id', 'name', ...this.optional().filter((c) => !this.hidden.has(c))];
  }

  /** The column chooser's boxes: one per optional column, ticked unless turned off. */
  private drawChooser(): void {
    if (!this.chooser) return;
    const boxes = this.optional().map((c) => {
      const label = document.createElement('label');
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: c, checked: !this.hidden.has(c) });
      box.dataset.testid = 'column-choice';
      label.append(box, document.createTextNode(c)); // keys are untrusted text
      return label;
    });
    const none = Object.assign(document.createElement('p'), { className: 'hint', textContent: 'No tag columns yet: they come with the answer.' });
    this.chooser.replaceChildren(...(boxes.length ? boxes : [none]));
  }

  /** Orders by `column`: ascending first, then descending on a second click. */
  private async sortBy(column: string): Promise<void> {
    const descending = this.order.column === column && !this.order.descending;
    this.order = { column, descending };
    await this.onOrder(this.order);
    this.generation++;
    this.drawHeader();
    this.refresh();
  }

  private drawHeader(): void {
    const cols = this.columns();
    const grid = `${gridOf(cols)} ${EDIT_COLUMN}`;
    this.header.style.gridTemplateColumns = this.list.style.gridTemplateColumns = grid;
    this.list.style.setProperty('--columns', grid);
    this.header.replaceChildren(
      ...cols.map((c) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.column = c;
        b.dataset.testid = 'column-header';
        const arrow = this.order.column === c ? (this.order.descending ? ' ▼' : ' ▲') : '';
        b.textContent = c + arrow; // keys are untrusted text
        b.title = `Sort by ${c}`;
        b.setAttribute('aria-sort', this.order.column === c ? (this.order.descending ? 'descending' : 'ascending') : 'none');
        return b;
      }),
      Object.assign(document.createElement('span'), { textContent: 'edit', className: 'edit-header' }),
    );
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

  /**
   * The row at the top of the view, fractional: the scroll position in rows, or past
   * {@link MAX_LIST_HEIGHT} the scroll range's share of the rows that can be scrolled past.
   */
  private topIndex(): number {
    const natural = this.count * ROW_HEIGHT;
    if (natural <= MAX_LIST_HEIGHT) return this.scroller.scrollTop / ROW_HEIGHT;
    const view = this.scroller.clientHeight;
    const range = MAX_LIST_HEIGHT - view;
    return range > 0 ? (Math.min(this.scroller.scrollTop, range) / range) * ((natural - view) / ROW_HEIGHT) : 0;
  }

  private async draw(): Promise<void> {
    const generation = this.generation;
    const top = this.topIndex();
    // Where row `index` is drawn: at index × ROW_HEIGHT, or in a scaled list where the scroll is.
    const scaled = this.count * ROW_HEIGHT > MAX_LIST_HEIGHT;
    const rowTop = (index: number) => (scaled ? this.scroller.scrollTop + (index - top) * ROW_HEIGHT : index * ROW_HEIGHT);
    const first = Math.max(0, Math.floor(top) - OVERSCAN);
    const visible = Math.ceil(this.scroller.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
    const last = Math.min(this.count, first + visible);
    const rows = await this.rows(first, last - first);
    if (generation !== this.generation) return;
    // A row keeps its element while it stays in view: replacing it between a press and a
    // release on it would lose the click (the browser sends none to a removed element).
    const shown = new Map(rows.map((match, i) => [first + i, { match, li: this.fill(this.shown.get(first + i)?.li ?? document.createElement('li'), match, first + i, rowTop(first + i)) }]));
    for (const [index, { li }] of this.shown) if (!shown.has(index)) li.remove();
    let previous: HTMLLIElement | null = null;
    for (const { li } of shown.values()) {
      const next: ChildNode | null = previous ? previous.nextSibling : this.list.firstChild;
      if (next !== li) this.list.insertBefore(li, next); // rows still in view stay put
      previous = li;
    }
    this.shown = shown;
  }

  /**
   * Writes match `m` as row `index` into `li`, `top` CSS pixels from the list's top, reusing its
   * cells: text is changed in place, so the element under the pointer stays (see {@link draw}).
   */
  private fill(li: HTMLLIElement, m: Match, index: number, top: number): HTMLLIElement {
    const cellOf = (c: string) => (c === 'type' ? m.type : c === 'id' ? String(m.id) : c === 'name' ? labelText(m) : c === 'change' ? (m.change ?? '') : (m.tags.find(([key]) => key === c)?.[1] ?? ''));
    const texts = this.columns().map(cellOf);
    // The edit links come last: kept while the row shows the same match (a click on one must land).
    let edit = li.querySelector<HTMLElement>(':scope > .edit');
    if (li.dataset.osmType !== m.type || li.dataset.osmId !== String(m.id)) edit = editLinks(m);
    edit?.remove();
    while (li.children.length > texts.length) li.lastElementChild!.remove();
    texts.forEach((text, i) => {
      // The name sits in a <bdi>: right-to-left or override characters stay inside it.
      const cell = (li.children[i] as HTMLElement | undefined) ?? li.appendChild(document.createElement(i === 2 ? 'bdi' : 'span'));
      cell.textContent = text; // untrusted text, set as text: never innerHTML
      if (i !== 2) cell.title = text;
    });
    // With no name, the first tag stands in as the label: marked, and said so in its tooltip.
    const label = li.children[2] as HTMLElement;
    const stoodIn = standIn(m);
    label.classList.toggle('stand-in', stoodIn !== null);
    if (stoodIn) label.title = `no name tag: its first tag, ${labelText(m)}, stands in`;
    else label.removeAttribute('title');
    li.append(edit ?? editLinks(m));
    li.value = index + 1;
    li.style.top = `${top}px`;
    li.dataset.index = String(index);
    li.dataset.testid = 'result-item';
    li.tabIndex = 0;
    li.dataset.osmType = m.type;
    li.dataset.osmId = String(m.id);
    li.classList.toggle('selected', `${m.type}/${m.id}` === this.selected);
    // A match with no location (no node of it in the file) is marked, its reason as the tooltip.
    li.classList.toggle('no-geometry', m.lat === null);
    if (m.lat === null) li.title = m.problem ?? '';
    else li.removeAttribute('title');
    return li;
  }
}

/**
 * CSS grid columns: fixed widths so the header and every row line up. The id column holds an
 * 11-digit id whole (today's node ids: malta.osm.pbf's reach 11 727 231 639) at the page's
 * 14px in the widest common sans-serif digits (DejaVu Sans, 0.64 em), padding included.
 */
function gridOf(columns: string[]): string {
  return columns.map((c) => (c === 'type' ? '64px' : c === 'id' ? '108px' : c === 'name' ? '170px' : '120px')).join(' ');
}
