/**
 * Setting the circle's centre on the map is an explicit tool: a map click sets it only while
 * the tool is on (one click, then it turns off), never as a side effect of closing a popup or
 * panning, and each change it makes can be undone.
 */
export class CentreTool {
  /** Whether the next map click sets the centre. */
  picking = false;
  /** The centre fields' values before each change the tool made, latest last. */
  private previous: string[] = [];

  /**
   * @param near the centre's input (`lat,lon`).
   * @param setCentre sets the centre (degrees), switching the place to a circle.
   * @param changed called after the centre changed (to draw the area).
   */
  constructor(
    private readonly near: HTMLInputElement,
    private readonly button: HTMLButtonElement,
    private readonly undoButton: HTMLButtonElement,
    private readonly setCentre: (lat: number, lon: number) => void,
    private readonly changed: () => void,
  ) {
    button.addEventListener('click', () => this.setPicking(!this.picking));
    undoButton.addEventListener('click', () => this.undo());
    this.showUndo();
  }

  /** Turns the tool on or off. */
  setPicking(on: boolean): void {
    this.picking = on;
    this.button.setAttribute('aria-pressed', String(on));
    this.button.textContent = on ? 'Click the map…' : 'Set on the map';
  }

  /** A map click at (`lat`, `lon`, degrees) while the tool is on: the centre moves there, and the tool turns off. */
  pick(lat: number, lon: number): void {
    this.previous.push(this.near.value);
    this.setCentre(lat, lon);
    this.setPicking(false);
    this.showUndo();
    this.changed();
  }

  /** Puts back the centre the last pick replaced. */
  undo(): void {
    const before = this.previous.pop();
    if (before === undefined) return;
    this.near.value = before;
    this.showUndo();
    this.changed();
  }

  private showUndo(): void {
    this.undoButton.hidden = this.previous.length === 0;
  }
}
