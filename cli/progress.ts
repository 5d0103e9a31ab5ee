/** The progress line on stderr: only when stderr is a terminal, so scripts and logs get nothing. */
import type { Progress } from '../workers/types';
import { groupDigits } from '../workers/common/file-info-rows';
import { waitingNote } from '../workers/common/waiting';
import { printable } from './printable';

/** Redrawn at most this often (ms). */
const EVERY_MS = 200;

/** A progress reporter for stream `err`: `update` redraws the line, `clear` removes it. `clock` gives milliseconds. */
export function progressLine(err: NodeJS.WriteStream, clock: () => number = Date.now): { update: (p: Progress) => void; clear: () => void } {
  if (!err.isTTY) return { update: () => {}, clear: () => {} };
  let last = 0;
  let shown = false;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return {
    update(p) {
      const now = clock();
      if (now - last < EVERY_MS) return;
      last = now;
      const total = Number.isFinite(p.totalBytes) ? ` / ${mb(p.totalBytes)}` : '';
      const rate = p.elapsedMs > 0 ? ` · ${((p.elements / p.elapsedMs) * 1000 / 1e6).toFixed(2)} M elements/s` : '';
      err.write(`\r\x1b[K${mb(p.bytesRead)}${total} MB read · ${p.blobsDecoded} blobs · ${groupDigits(p.elements)} elements${rate}${printable(waitingNote(p))}`);
      shown = true;
    },
    clear() {
      if (shown) err.write('\r\x1b[K');
      shown = false;
    },
  };
}
