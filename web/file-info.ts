/**
 * The file-info view: what `osmium fileinfo` shows about the open file (size, writing program,
 * source, bbox, replication fields, features; after a whole read, blobs by compression, element
 * counts, id ranges and the newest timestamp), readable, and as JSON in the element
 * `data-testid=file-info` for scripts and tests. File strings are untrusted: set as text only.
 */
import type { FileInfo } from '../workers/types';
import { fileInfoRows } from '../workers/common/file-info-rows';

export class FileInfoView {
  private list: HTMLDListElement;
  private json: HTMLElement;

  /** @param root the view's container, holding a `<dl>` and the `data-testid=file-info` element. */
  constructor(private root: HTMLElement) {
    this.list = root.querySelector('dl')!;
    this.json = root.querySelector('[data-testid=file-info]')!;
  }

  /** Empties the view (another file is being read: nothing of the last one may stay). */
  clear(): void {
    this.json.textContent = '';
    this.list.replaceChildren();
  }

  /** Shows `info` (the header's part at once, the rest once a whole read has counted it). */
  show(info: FileInfo): void {
    this.root.hidden = false;
    this.json.textContent = JSON.stringify(info);
    this.list.replaceChildren(
      ...fileInfoRows(info).flatMap(([label, text]) => {
        const dt = document.createElement('dt');
        dt.textContent = label;
        const dd = document.createElement('dd');
        dd.textContent = text;
        return [dt, dd];
      }),
    );
  }
}
