/** The progress bar, status line and counters. */
import type { Progress } from '../workers/types';
import { waitingNote } from '../workers/common/waiting';
import { CHANGES } from '../workers/common/wire';

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Formats a rate such as 1234567 → "1.2 M". */
function rate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} k`;
  return n.toFixed(0);
}

/** What the stats line says of the blob index in each state of a read. */
const BLOB_INDEX_NOTES: Record<NonNullable<Progress['blobIndex']>, string> = {
  used: ' · only the blobs the blob index names',
  building: ' · building the blob index',
  kept: ' · blob index kept for the next query',
  mismatch: ' · the blob index did not match the file: reading it whole, building a new one',
};

export class ProgressView {
  private bar: HTMLProgressElement;
  private status: HTMLElement;
  private stats: HTMLElement;
  private count: HTMLElement;
  private mapSample: HTMLElement;
  private changes: HTMLElement;
  private basemap: HTMLElement;
  private areaCopy: HTMLElement;
  private areaCopyNote: HTMLElement;

  /** @param root holds the progress section and the answer pane's summary (the count, the change counts, the map's sample note). */
  constructor(root: ParentNode) {
    this.bar = root.querySelector('progress')!;
    this.status = root.querySelector('[data-testid=status]')!;
    this.stats = root.querySelector('#stats')!;
    this.count = root.querySelector('[data-testid=result-count]')!;
    this.mapSample = root.querySelector('[data-testid=map-sample]')!;
    this.changes = root.querySelector('[data-testid=change-counts]')!;
    this.basemap = root.querySelector('[data-testid=basemap-note]')!;
    this.areaCopy = root.querySelector('#area-copy')!;
    this.areaCopyNote = root.querySelector('[data-testid=area-copy-note]')!;
  }

  /** Says what the basemap shows, or why there is none. */
  setBasemapNote(text: string): void {
    this.basemap.textContent = text;
  }

  /** Sets the status text; `error: …` statuses are styled as errors. */
  setStatus(text: string): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', text.startsWith('error:'));
  }

  /**
   * Says what the area copy of the last question is (docs/optimize.md, "Area copies"): `making`
   * (`share` done), `kept` (`bytes` in all kept), `failed` (`message`), `used` (the answer read
   * it: `bytes` in all kept), or `none` (hidden).
   */
  setAreaCopy(state: 'making' | 'kept' | 'failed' | 'used' | 'none', share = 0, bytes = 0, message = ''): void {
    const notes = {
      making: `keeping a copy of this place for the next question… ${Math.round(share * 100)} %`,
      kept: `area copy kept for the next question here: ${mb(bytes)} MB in this browser`,
      used: `answered from the area copy kept for this place (${mb(bytes)} MB in this browser)`,
      failed: `no area copy: ${message}`,
      none: '',
    };
    this.areaCopy.hidden = state === 'none';
    this.areaCopyNote.textContent = notes[state];
  }

  setCount(n: number): void {
    // Written only on change: each write is a frame of its own while a run goes.
    if (this.count.textContent !== String(n)) this.count.textContent = String(n);
  }

  /** Shows a change view's counts, `[created, modified, deleted]`, as the map's legend; hidden for other answers (undefined). */
  setChanges(counts: number[] | undefined): void {
    this.changes.hidden = counts === undefined;
    this.changes.replaceChildren();
    CHANGES.forEach((change, i) => {
      const dot = document.createElement('i');
      dot.className = `dot ${change}`;
      const label = document.createElement('span');
      label.dataset.change = change;
      label.textContent = `${(counts?.[i] ?? 0).toLocaleString('en')} ${change}`;
      this.changes.append(dot, label, ' ');
    });
  }

  /**
   * Says when the map draws a sample of the answer (1 match in `oneIn` of `count`, see the
   * crate's `MAP_MAX_FEATURES`); hidden when it draws every match.
   */
  setMapSample(oneIn: number, count: number): void {
    this.mapSample.hidden = oneIn <= 1;
    this.mapSample.textContent =
      oneIn <= 1
        ? ''
        : `Too many matches to draw one by one: the map draws 1 in ${oneIn}, picked evenly ` +
          `(about ${Math.round(count / oneIn).toLocaleString('en')} of ${count.toLocaleString('en')}). The list and the exports hold every match.`;
  }

  /** Clears the last read's figures (a new read starts: they were of another). */
  clearStats(): void {
    if (this.bar.value !== 0) this.bar.value = 0; // set only when it changes: a write is a mutation observers see
    if (this.stats.textContent) this.stats.textContent = '';
  }

  update(p: Progress): void {
    this.bar.value = p.totalBytes > 0 ? p.bytesRead / p.totalBytes : 0;
    const seconds = p.elapsedMs / 1000;
    const perSecond = seconds > 0 ? p.elements / seconds : 0;
    const total = Number.isFinite(p.totalBytes) ? mb(p.totalBytes) : '?';
    const http =
      p.requestsInFlight === undefined
        ? ''
        : ` · ${p.requestsInFlight} requests in flight · ${p.retries} retries${waitingNote(p)}` +
          (p.rangeSupported ? '' : ' · the server has no Range support: reading it front to back');
    const blobIndex = p.areaCopy !== undefined ? ' · from the area copy kept for this place' : p.blobIndex ? BLOB_INDEX_NOTES[p.blobIndex] : '';
    this.stats.textContent =
      `${mb(p.bytesRead)} / ${total} MB read${blobIndex} · ${p.blobsDecoded} blobs decoded · ` +
      `${rate(p.elements)} elements (${rate(perSecond)}/s) · ${seconds.toFixed(1)} s${http}`;
  }
}
