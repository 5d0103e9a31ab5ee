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
   * Present when the file can only be read front to back (an HTTP server that ignores Range):
   * its chunks in order. The framer then uses this instead of {@link Source.read}.
   */
  readonly stream?: (signal?: AbortSignal) => AsyncIterable<Uint8Array>;
  /** Request counters, for sources that make requests. */
  readonly stats?: FetchStats;
  /** How the framer should read this source: bytes per read, and reads in flight. */
  readonly readOptions?: { chunkSize: number; readAhead: number };
}

/** A local file (drag-and-drop or picker), read in slices so it is never loaded whole. */
export class FileSource implements Source {
  readonly name: string;
  readonly size: number;

  constructor(private readonly file: File) {
    this.name = file.name;
    this.size = file.size;
  }

  async open(): Promise<void> {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    try {
      return new Uint8Array(await this.file.slice(offset, offset + length).arrayBuffer());
    } catch (e) {
      throw new Error(`could not read ${this.name} at byte ${offset}: ${(e as Error).message} (was the file moved or changed?)`);
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
