/**
 * The answer pane's frame: its width, which the person sets by dragging the separator between
 * it and the map (or with its arrow keys) and which this browser remembers, and on a narrow
 * screen the handle that slides the pane up over the map and down again.
 */

/** Where the width is remembered (`localStorage`), in CSS pixels. */
const WIDTH_KEY = 'pbf-explorer:pane-width';
/** The narrowest pane, and the narrowest map left beside it (CSS pixels). */
const MIN_PANE = 260;
const MIN_MAP = 240;
/** One arrow key press moves the separator this far (CSS pixels). */
const KEY_STEP = 24;

export class AnswerPane {
  /**
   * @param pane the pane (`#results`); `resizer` the separator before it (role `separator`);
   *   `toggle` the narrow screens' handle.
   */
  constructor(
    private pane: HTMLElement,
    private resizer: HTMLElement,
    private toggle: HTMLButtonElement,
  ) {
    const kept = Number(localStorage.getItem(WIDTH_KEY));
    if (kept > 0) this.setWidth(kept, false);
    resizer.addEventListener('pointerdown', (e) => {
      resizer.setPointerCapture(e.pointerId);
      const move = (m: PointerEvent) => this.setWidth(window.innerWidth - m.clientX, false);
      const up = () => {
        resizer.removeEventListener('pointermove', move);
        this.setWidth(this.width(), true);
      };
      resizer.addEventListener('pointermove', move);
      resizer.addEventListener('pointerup', up, { once: true });
      resizer.addEventListener('pointercancel', up, { once: true });
    });
    resizer.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowLeft' ? KEY_STEP : e.key === 'ArrowRight' ? -KEY_STEP : 0;
      if (!step) return;
      e.preventDefault();
      this.setWidth(this.width() + step, true);
    });
    toggle.addEventListener('click', () => this.open(!pane.classList.contains('open')));
    this.describe();
  }

  /** The pane's width in CSS pixels. */
  width(): number {
    return this.pane.getBoundingClientRect().width;
  }

  /** Sets the pane's width (CSS pixels), kept between the narrowest pane and the narrowest map; `keep`: remembered. */
  private setWidth(px: number, keep: boolean): void {
    const panel = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--panel')) || 0;
    const max = Math.max(MIN_PANE, window.innerWidth - panel - MIN_MAP);
    const width = Math.round(Math.min(max, Math.max(MIN_PANE, px)));
    document.documentElement.style.setProperty('--pane', `${width}px`);
    if (keep) localStorage.setItem(WIDTH_KEY, String(width));
    this.describe();
  }

  /** The separator's value, for assistive technology: the pane's width in pixels. */
  private describe(): void {
    const width = Math.round(this.width());
    this.resizer.setAttribute('aria-valuenow', String(width));
    this.resizer.setAttribute('aria-valuemin', String(MIN_PANE));
    this.resizer.setAttribute('aria-valuetext', `answer pane ${width} pixels wide`);
  }

  /** Slides the pane up over the map (`open`) or down to its handle (narrow screens). */
  open(open: boolean): void {
    this.pane.classList.toggle('open', open);
    this.toggle.setAttribute('aria-expanded', String(open));
  }

  /** The handle's words: how many matches the answer has, and which way it slides. */
  setCount(count: number): void {
    const text = `Answer: ${count.toLocaleString('en-US')} match${count === 1 ? '' : 'es'}`;
    if (this.toggle.textContent !== text) this.toggle.textContent = text;
  }
}
