/** A local file on the command line, behind the same `Source` interface as the browser's `File` and HTTP. */
import { open, type FileHandle } from 'node:fs/promises';
import type { ReadOptions, Source } from './source';

/** Bytes per piece of a front-to-back read. */
const PIECE_BYTES = 4 << 20;

/** A file read with positioned reads (`pread`), in pieces of 4 MiB, at any offset. Never loaded whole. */
export class NodeFileSource implements Source {
  size = NaN;
  private handle: FileHandle | null = null;

  /** @param name the file's path. */
  constructor(readonly name: string) {}

  /** Opens the file and learns its size. Rejects with `cannot open PATH: reason`. */
  async open(): Promise<void> {
    if (this.handle) return;
    try {
      this.handle = await open(this.name, 'r');
      this.size = (await this.handle.stat()).size;
    } catch (e) {
      throw new Error(`cannot open ${this.name}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
  }

  private fail(offset: number, why: string): Error {
    return new Error(`could not read ${this.name} at byte ${offset}: ${why} (was the file moved or changed?)`);
  }

  private async fill(into: Uint8Array, offset: number): Promise<number> {
    let at = 0;
    while (at < into.length) {
      const { bytesRead } = await this.handle!.read(into, at, into.length - at, offset + at).catch((e: Error) => {
        throw this.fail(offset + at, e.message);
      });
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at;
  }

  /**
   * Bytes `offset` … `offset + length - 1` (fewer only at the end) in pieces of at most 4 MiB,
   * each in a buffer from `buffers` (handed back by the framer once consumed). Throws naming the offset.
   */
  async *read(offset: number, length: number, { signal, buffers }: ReadOptions = {}): AsyncIterable<Uint8Array> {
    await this.open();
    const end = Math.min(offset + length, this.size);
    for (let at = offset; at < end; ) {
      if (signal?.aborted) throw signal.reason;
      const want = Math.min(PIECE_BYTES, end - at);
      const piece = buffers?.get(want) ?? new Uint8Array(want);
      const got = await this.fill(piece, at);
      if (got !== want) throw this.fail(at + got, `the file ended after ${at + got - offset} of ${end - offset} bytes`);
      at += got;
      yield piece;
    }
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
