/**
 * Hands on what the decode workers return in file order, although they finish in any order:
 * so that after a bad blob only what came from blobs before it is kept (docs/pbf-support.md, "Bad input":
 * what was found before the bad spot stays), never what a blob dispatched after it brought.
 * At most the few blobs in flight are held back.
 */
export class FileOrder<T> {
  /** Blob indexes dispatched and not finished yet. */
  private inFlight = new Set<number>();
  private held = new Map<number, T>();
  private badAt = Infinity;

  /** @param take called with each blob's result, in increasing blob index, none after a bad blob. */
  constructor(private take: (index: number, item: T) => void) {}

  /** Blob `index` was sent to a decode worker. */
  dispatched(index: number): void {
    this.inFlight.add(index);
  }

  /** Blob `index` gave `item`: it is handed on once every blob before it is done. */
  done(index: number, item: T): void {
    this.inFlight.delete(index);
    if (index < this.badAt) this.held.set(index, item);
    this.flush();
  }

  /** Blob `index` failed: nothing from it or after it is handed on. */
  failed(index: number): void {
    this.inFlight.delete(index);
    this.badAt = Math.min(this.badAt, index);
    for (const i of [...this.held.keys()]) if (i >= this.badAt) this.held.delete(i);
    this.flush();
  }

  private flush(): void {
    const firstOpen = Math.min(this.badAt, ...this.inFlight);
    for (const i of [...this.held.keys()].sort((a, b) => a - b)) {
      if (i >= firstOpen) break;
      const item = this.held.get(i)!;
      this.held.delete(i);
      this.take(i, item);
    }
  }
}
