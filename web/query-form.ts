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
  }

  get state(): QueryState {
    const v = (name: keyof QueryState) => this.field(name).value;
    return { q: v('q'), place: v('place') as QueryState['place'], near: v('near'), radius: v('radius'), bbox: v('bbox') };
  }

  set state(s: QueryState) {
    for (const [name, value] of Object.entries(s)) this.field(name as keyof QueryState).value = value;
    this.showPlace();
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
