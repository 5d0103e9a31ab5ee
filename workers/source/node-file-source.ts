/** A local file on the command line, behind the same `Source` interface as the browser's `File` and HTTP. */
import { open, type FileHandle } from 'node:fs/promises';
import type { BufferPool } from '../framer/buffers';
import type { Source } from './source';

/** Bytes per piece of a front-to-back read. */
const PIECE_BYTES = 4 << 20;

/**
 * A file read with positioned reads (`pread`): front to back in pieces of 4 MiB for a full read,
 * at any offset for the targeted reads. Never loaded whole.
 */
export class NodeFileSource implements Source {
  size = NaN;
  readonly seekable = true;
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

  /** Reads `length` bytes at byte `offset` (fewer only at the end). Rejects naming the offset. */
  async read(offset: number, length: number): Promise<Uint8Array> {
    await this.open();
    const out = new Uint8Array(Math.max(0, Math.min(length, this.size - offset)));
    const got = await this.fill(out, offset);
    if (got !== out.length) throw this.fail(offset + got, `the file ended after ${got} of ${out.length} bytes`);
    return out;
  }

  /** The file front to back, each piece in a buffer from `buffers` (handed back by the framer once consumed). */
  async *stream(signal?: AbortSignal, buffers?: BufferPool): AsyncIterable<Uint8Array> {
    await this.open();
    for (let at = 0; at < this.size; ) {
      if (signal?.aborted) throw signal.reason;
      const piece = buffers?.get(PIECE_BYTES) ?? new Uint8Array(PIECE_BYTES);
      const got = await this.fill(piece, at);
      if (got === 0) return;
      at += got;
      yield piece.subarray(0, got);
    }
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
