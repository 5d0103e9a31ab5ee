/**
 * Buffers for Blobs, used again once a decode worker hands them back, so reading a file makes
 * next to no garbage: each of the three isolates (query worker, decode workers) otherwise holds up
 * to ~64 MiB of spent Blobs before V8 collects them, which showed as renderer RSS growing with
 * the file (the 110 MB file peaked 1.4× the 6 MB one).
 */

/** Most bytes kept in the free list. */
const MAX_FREE_BYTES = 8 << 20;
/** Sizes are rounded up to this, so a buffer fits many later Blobs. */
const GRAIN = 64 << 10;

export class BufferPool {
  private free: ArrayBuffer[] = [];
  private freeBytes = 0;

  /** A view of `n` bytes on a free buffer (at most twice as large), or on a new one. */
  get(n: number): Uint8Array<ArrayBuffer> {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i].byteLength;
      if (size >= n && size <= 2 * n + GRAIN && (best < 0 || size < this.free[best].byteLength)) best = i;
    }
    if (best < 0) return new Uint8Array(new ArrayBuffer(Math.ceil(Math.max(n, 1) / GRAIN) * GRAIN), 0, n);
    const [buffer] = this.free.splice(best, 1);
    this.freeBytes -= buffer.byteLength;
    return new Uint8Array(buffer, 0, n);
  }

  /** Takes back a buffer nobody uses any more; past the cap the oldest free ones go to the GC, so the sizes kept follow the file. */
  put(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || buffer.byteLength > MAX_FREE_BYTES) return;
    this.free.push(buffer);
    this.freeBytes += buffer.byteLength;
    while (this.freeBytes > MAX_FREE_BYTES) this.freeBytes -= this.free.shift()!.byteLength;
  }
}
