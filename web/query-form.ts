/** The query form: reads and fills the fields, and shows only the inputs of the chosen place. */
import type { QueryState } from './url-state';

export class QueryForm {
  constructor(private form: HTMLFormElement) {
    this.field('place').addEventListener('change', () => this.showPlace());
    this.showPlace();
  }

  private field(name: keyof QueryState): HTMLInputElement | HTMLSelectElement {
    return this.form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  }

  private showPlace(): void {
    const place = this.field('place').value;
    (this.form.querySelector('.place-circle') as HTMLElement).hidden = place !== 'circle';
    (this.form.querySelector('.place-bbox') as HTMLElement).hidden = place !== 'bbox';
    (this.form.querySelector('.place-relation') as HTMLElement).hidden = place !== 'relation';
    (this.form.querySelector('.place-polygon') as HTMLElement).hidden = place !== 'polygon';
  }

  get state(): QueryState {
    const v = (name: keyof QueryState) => this.field(name).value;
    const inside = (this.field('inside') as HTMLInputElement).checked ? 'all' : 'any';
    return { q: v('q'), place: v('place') as QueryState['place'], near: v('near'), radius: v('radius'), bbox: v('bbox'), relation: v('relation'), poly: v('poly'), inside, at: v('at'), from: v('from') };
  }

  set state(s: QueryState) {
    for (const [name, value] of Object.entries(s)) {
      if (name === 'inside') (this.field('inside') as HTMLInputElement).checked = value === 'all';
      else this.field(name as keyof QueryState).value = value;
    }
    this.showPlace();
    this.markError(null);
  }

  /**
   * Shows `message` under the query field (null clears it), and marks the query text as wrong
   * at `column` (1-based, in characters): the caret goes there, with the spot selected, and the
   * field is flagged invalid (`aria-invalid`, the message as its description).
   */
  markError(column: number | null, message: string | null = null): void {
    const q = this.field('q') as HTMLInputElement;
    const shown = this.form.querySelector<HTMLElement>('#query-error')!;
    // Written only on change: a run's start changes nothing on the page it does not have to.
    if (shown.textContent !== (message ?? '')) shown.textContent = message ?? ''; // untrusted text: set as text
    if (shown.hidden !== (message === null)) shown.hidden = message === null;
    if (q.hasAttribute('aria-invalid') !== (column !== null)) q.toggleAttribute('aria-invalid', column !== null);
    if (column === null) return;
    const at = [...q.value].slice(0, column - 1).join('').length; // characters to UTF-16 units
    q.focus();
    q.setSelectionRange(at, Math.min(q.value.length, at + 1));
    shown.scrollIntoView({ block: 'nearest' }); // the message in view too, not only the field
  }

  /** Sets the circle's centre (degrees), as a map click does. */
  setCentre(lat: number, lon: number): void {
    this.field('near').value = `${lat.toFixed(5)},${lon.toFixed(5)}`;
    if (this.field('place').value !== 'circle') {
      this.field('place').value = 'circle';
      this.showPlace();
    }
  }
}
