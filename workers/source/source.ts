/**
 * Where PBF bytes come from. One interface for a local `File` and for an HTTP URL read with
 * Range requests (RFC 7233), so the framer and everything after it need not know which.
 */

/** Random-access bytes of one file. */
export interface Source {
  /** What to call the file in messages: a file name or a URL. */
  readonly name: string;
  /** Total size in bytes (NaN when a server without Range support sends no length); known once {@link Source.open} resolves. */
  readonly size: number;
  /** Learns the size (and for HTTP, whether ranges work). Rejects with a message a user can act on. */
  open(signal?: AbortSignal): Promise<void>;
  /**
   * Reads exactly `length` bytes at byte `offset` (fewer only at the end of the file).
   * Rejects with an Error naming the offset when the read fails.
   */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * Present when the whole file is best read front to back (a local file), or can only be (an
   * HTTP server that ignores Range): its chunks in order. The framer then uses this instead of
   * {@link Source.read} for a full read.
   */
  readonly stream?: (signal?: AbortSignal) => AsyncIterable<Uint8Array>;
  /** Whether {@link Source.read} works (false for an HTTP server that ignores Range). */
  readonly seekable: boolean;
  /** Request counters, for sources that make requests. */
  readonly stats?: FetchStats;
  /** How the framer should read this source: bytes per read, and reads in flight. */
  readonly readOptions?: { chunkSize: number; readAhead: number };
}

/**
 * A local file (drag-and-drop or picker), never loaded whole: read front to back through
 * `File.stream()`, and in slices (each itself streamed) for the targeted second read.
 * Streams, not `slice().arrayBuffer()`: Chromium keeps the memory of every ArrayBuffer it reads
 * from a file that way, so the tab grew by the size of the file (1.2 GB for a 1.1 GB file, even
 * with each buffer detached after use); streamed, it stays near 0.3 GB, and reads faster.
 */
export class FileSource implements Source {
  readonly name: string;
  readonly size: number;
  readonly seekable = true;

  constructor(private readonly file: File) {
    this.name = file.name;
    this.size = file.size;
  }

  async open(): Promise<void> {}

  private fail(offset: number, e: unknown): Error {
    return new Error(`could not read ${this.name} at byte ${offset}: ${(e as Error).message} (was the file moved or changed?)`);
  }

  async read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, Math.min(length, this.size - offset)));
    let at = 0;
    try {
      for await (const piece of this.pieces(this.file.slice(offset, offset + out.length), signal)) {
        out.set(piece, at);
        at += piece.length;
      }
    } catch (e) {
      throw this.fail(offset + at, e);
    }
    return out;
  }

  readonly stream = (signal?: AbortSignal): AsyncIterable<Uint8Array> => this.pieces(this.file, signal);

  private async *pieces(blob: Blob, signal?: AbortSignal): AsyncIterable<Uint8Array> {
    const reader = blob.stream().getReader();
    try {
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
}

/** Counters of an HTTP source, for the progress line. */
export interface FetchStats {
  bytesFetched: number;
  requestsInFlight: number;
  retries: number;
  /** False once the server answered a Range request with the whole file (200). */
  rangeSupported: boolean;
}
