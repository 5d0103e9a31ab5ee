/**
 * Where PBF bytes come from. One interface for a local `File` and for an HTTP URL read with
 * Range requests (RFC 7233), so the framer and everything after it need not know which.
 */

/** Random-access bytes of one file. */
export interface Source {
  /** What to call the file in messages: a file name or a URL. */
  readonly name: string;
  /** Total size in bytes; known once {@link Source.open} has resolved. */
  readonly size: number;
  /** Learns the size (and for HTTP, whether ranges work). Rejects with a message a user can act on. */
  open(signal?: AbortSignal): Promise<void>;
  /**
   * Reads `length` bytes at byte `offset` (fewer only at the end of the file).
   * Rejects with an Error naming the offset when the read fails.
   */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
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

/** Parses `Content-Range: bytes a-b/total` (RFC 7233 §4.2) and returns the total, or null. */
export function contentRangeTotal(header: string | null): number | null {
  const m = header?.match(/^bytes\s+\d+-\d+\/(\d+)$/i);
  return m ? Number(m[1]) : null;
}

/**
 * A PBF on an HTTP server, read with `Range: bytes=a-b` requests (RFC 7233). The server must
 * answer 206 with `Content-Range`; cross-origin it must also send CORS headers.
 */
export class FetchSource implements Source {
  size = 0;

  constructor(readonly name: string) {}

  async open(signal?: AbortSignal): Promise<void> {
    const res = await this.fetchRange(0, 0, signal);
    const total = contentRangeTotal(res.headers.get('Content-Range'));
    await res.body?.cancel();
    if (total === null) {
      throw new Error(`${this.name}: the server did not return Content-Range for a Range request, so the file size is unknown`);
    }
    this.size = total;
  }

  /**
   * Reads bytes `offset` … `offset + length - 1` with one Range request. A reply that is not
   * exactly that range (a cut body, a proxy's wrong slice) is asked for again, twice at most.
   * @throws Error naming the URL and range when the server keeps answering wrongly.
   */
  async read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const end = Math.min(offset + length, this.size) - 1;
    let problem = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await this.fetchRange(offset, end, signal);
      const range = res.headers.get('Content-Range');
      const body = new Uint8Array(await res.arrayBuffer());
      if (body.length === end - offset + 1 && range?.startsWith(`bytes ${offset}-${end}/`)) return body;
      problem = `asked for bytes ${offset}-${end}, got ${body.length} bytes (Content-Range: ${range})`;
    }
    throw new Error(`${this.name}: the server answered with the wrong bytes: ${problem}`);
  }

  private async fetchRange(start: number, end: number, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.name, { headers: { Range: `bytes=${start}-${end}` }, signal });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new Error(`could not fetch ${this.name} (network error, or the server does not allow this origin via CORS): ${(e as Error).message}`);
    }
    if (res.status === 206) return res;
    await res.body?.cancel();
    if (res.status === 200) throw new Error(`${this.name}: the server ignores Range requests (answered 200, not 206)`);
    throw new Error(`${this.name}: HTTP ${res.status} ${res.statusText} for bytes ${start}-${end}`);
  }
}
