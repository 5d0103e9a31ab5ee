import type { BufferPool } from '../framer/buffers';

/**
 * Where PBF bytes come from. One interface for a local `File` and for an HTTP URL read with
 * Range requests (RFC 7233), so the framer and everything after it need not know which.
 */

/**
 * Random-access bytes of one file: its identity (`name`), its size, and the bytes of a range,
 * as small as PMTiles' `Source`. How to read a range (one buffer, or a stream of pieces; which
 * request; what a probe fetched ahead) is the source's business; how to frame the file and how
 * many reads to keep in flight is the framer's.
 */
export interface Source {
  /** What to call the file in messages, and what identifies it: a file name or a URL. */
  readonly name: string;
  /** Total size in bytes (NaN when a server without Range support sends no length); known once {@link Source.open} resolves. */
  readonly size: number;
  /** Learns the size (and for HTTP, whether ranges work). Rejects with a message a user can act on. */
  open(signal?: AbortSignal): Promise<void>;
  /**
   * The bytes `offset` … `offset + length - 1` (fewer only at the end of the file; `length`
   * may be Infinity), in order, in pieces of any size. Each piece of a read that runs to the
   * end of the file has its buffer to itself (some come from `options.buffers`): the reader may
   * put it back there once consumed, as the framer does.
   * Throws an Error naming the offset when the read fails, the signal's reason when it aborts.
   */
  read(offset: number, length: number, options?: ReadOptions): AsyncIterable<Uint8Array>;
}

/** How a reader wants a {@link Source.read}. */
export interface ReadOptions {
  signal?: AbortSignal;
  /** Where the buffers of a streamed read's pieces may come from (the framer's pool). */
  buffers?: BufferPool;
}

/**
 * The bytes `offset` … `offset + length - 1` of `source` in one buffer (fewer only at the end
 * of the file). Throws as {@link Source.read}.
 */
export async function readBytes(source: Source, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let total = 0;
  for await (const piece of source.read(offset, length, { signal })) {
    pieces.push(piece);
    total += piece.length;
  }
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * A local file (drag-and-drop or picker), never loaded whole. The whole file, or a range longer
 * than {@link STREAM_ABOVE} bytes, is streamed (`stream()`) into the reader's buffers; a shorter
 * range comes in one buffer (`slice().arrayBuffer()`).
 * Streams for long ranges: Chromium keeps the memory of every ArrayBuffer it reads from a file
 * with `arrayBuffer()`, so the tab grew by the size of the file (1.2 GB for a 1.1 GB file, even
 * with each buffer detached after use); streamed, it stays near 0.3 GB, and reads faster.
 * One buffer for short ranges: a stream's reader made a garbage chunk per 64 KiB and a copy of
 * each (a BYOB reader on a slice hung in Chromium 156 when a query worker read slices after an
 * earlier query had streamed another file); an indexed query reads ~20 MB so, and the garbage
 * showed as renderer RSS growing over queries in a row (`docs/decisions.md`).
 */
export class FileSource implements Source {
  readonly name: string;
  readonly size: number;

  /** The file's modification time (ms since the epoch): part of where its blob index is kept. */
  readonly lastModified: number;

  constructor(private readonly file: File) {
    this.name = file.name;
    this.size = file.size;
    this.lastModified = file.lastModified;
  }

  async open(): Promise<void> {}

  private fail(offset: number, e: unknown): Error {
    return new Error(`could not read ${this.name} at byte ${offset}: ${(e as Error).message} (was the file moved or changed?)`);
  }

  async *read(offset: number, length: number, options: ReadOptions = {}): AsyncIterable<Uint8Array> {
    const end = Math.min(offset + length, this.size);
    if (end - offset > STREAM_ABOVE || (offset === 0 && end === this.size)) yield* this.streamed(offset, end, options);
    else if (end > offset) yield await this.whole(offset, end, options.signal);
  }

  private async whole(offset: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    let out: Uint8Array;
    try {
      out = new Uint8Array(await this.file.slice(offset, end).arrayBuffer());
    } catch (e) {
      throw signal?.aborted ? signal.reason : this.fail(offset, e);
    }
    if (signal?.aborted) throw signal.reason;
    if (out.length !== end - offset) throw this.fail(offset + out.length, new Error(`the file ended after ${out.length} of ${end - offset} bytes`));
    return out;
  }

  /**
   * Bytes `offset`…`end - 1` in pieces of {@link PIECE_BYTES}, read straight into buffers from
   * `buffers` (BYOB): with the framer handing consumed pieces back, reading a file makes no garbage.
   */
  private async *streamed(offset: number, end: number, { signal, buffers }: ReadOptions): AsyncIterable<Uint8Array> {
    let at = offset;
    const resume = { reopen: (from: number) => this.file.slice(offset + from, end).stream(), stallMs: FILE_STALL_MS };
    try {
      // The whole file through `File.stream()` itself: a BYOB reader on a slice's stream once hung (above).
      const stream = offset === 0 && end === this.size ? this.file.stream() : this.file.slice(offset, end).stream();
      for await (const piece of streamPieces(stream, signal, buffers, resume)) {
        at += piece.length;
        yield piece;
      }
    } catch (e) {
      throw signal?.aborted ? e : this.fail(at, e);
    }
  }
}

/** Ranges longer than this (bytes) are streamed, not read into one buffer (see {@link FileSource}). */
export const STREAM_ABOVE = 16 << 20;

/** Bytes per piece of a front-to-back read (Chromium hands out at most 64 KiB per read: a piece gathers several). */
const PIECE_BYTES = 1 << 20;

/**
 * How long (ms) a piece of a local file may take before its read counts as stalled. A piece
 * comes in milliseconds, a waking disk in seconds; a BYOB read of Chromium's `File.stream()`
 * was seen never to settle (`docs/decisions.md`).
 */
export const FILE_STALL_MS = 10_000;
/** Stalls a front-to-back read recovers from; at the next, it fails with the byte it stopped at. */
export const MAX_STALLS = 3;

/**
 * How to go on when a read stalls: `reopen(offset)` gives the same bytes again from `offset`,
 * and a piece not filled within `stallMs` (after a stall: a chunk not read) counts as stalled.
 */
export interface StallResume {
  /** Absent: a stall throws {@link StalledError} (the caller asks for the bytes again itself). */
  reopen?: (offset: number) => ReadableStream<Uint8Array>;
  stallMs: number;
  /** The deadline is each read's (no byte for `stallMs`: a network's measure), not each piece's. */
  perRead?: boolean;
  /** Where each read's wait is noted. */
  waits?: Waits;
}

/**
 * The reads of a source waiting for their next bytes, each since when: how long the source has
 * kept its reader waiting (the progress line's "waiting for the server"). A read the consumer
 * has not asked for yet is not waiting, so a busy pool never reads as a silent server.
 */
export class Waits {
  private since = new Set<{ at: number }>();

  /** Notes a wait beginning now; call what it returns when the bytes (or an error) came. */
  begin(): () => void {
    const wait = { at: performance.now() };
    this.since.add(wait);
    return () => this.since.delete(wait);
  }

  /** How long (ms) the longest wait under way has lasted; 0 when none is. */
  longest(now = performance.now()): number {
    let most = 0;
    for (const wait of this.since) most = Math.max(most, now - wait.at);
    return most;
  }
}

/** A stream that gave no byte for `stallMs` at its byte `at` (counted from the stream's start). */
export class StalledError extends Error {
  constructor(readonly at: number, readonly stallMs: number) {
    super(`no byte for ${stallMs / 1000} s`);
    this.name = 'StalledError';
  }
}

/**
 * The bytes of `stream` in pieces of {@link PIECE_BYTES} (the last may be shorter), each read
 * straight into a buffer from `buffers` with a BYOB reader, so a consumer that puts consumed
 * pieces back makes no garbage. A stream that is not a byte stream is read with the default
 * reader, its chunks as they come. With `resume`, a piece that stalls is read again, and the
 * rest after it, from `resume.reopen` with the default reader (the stalled read keeps the
 * piece's buffer, so the piece starts over); that read, when it stalls too, is reopened from the
 * byte it stopped at, up to {@link MAX_STALLS} stalls in all. Throws at the next one, naming
 * the byte.
 */
export async function* streamPieces(stream: ReadableStream<Uint8Array>, signal?: AbortSignal, buffers?: BufferPool, resume?: StallResume): AsyncIterable<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    yield* chunksOf(stream, signal, resume);
    return;
  }
  let ended = false;
  let at = 0;
  try {
    for (;;) {
      const piece = await fillFrom(reader, buffers?.get(PIECE_BYTES) ?? new Uint8Array(PIECE_BYTES), signal, resume?.stallMs, resume?.perRead, resume?.waits);
      if (piece === STALLED) {
        yield* afterStall(resume!, at, signal);
        return;
      }
      const { view, filled } = piece;
      ended = filled < view.length;
      if (filled > 0) yield view.subarray(0, filled);
      at += filled;
      if (ended) return;
    }
  } finally {
    // Left before its end (an error, a stall, or the reader stopped): cancelled, so a response stops downloading.
    if (ended) reader.releaseLock();
    else void reader.cancel().catch(() => {});
  }
}

/** {@link streamPieces} for a stream that is not a byte stream: its chunks as they come, a stall met as there. */
async function* chunksOf(stream: ReadableStream<Uint8Array>, signal?: AbortSignal, resume?: StallResume): AsyncGenerator<Uint8Array> {
  let at = 0;
  const chunks = streamChunks(stream, signal, resume?.stallMs, resume?.waits);
  for (;;) {
    const next = await chunks.next();
    if (next.done) {
      if (next.value === 'ended') return;
      yield* afterStall(resume!, at, signal);
      return;
    }
    at += next.value.length;
    yield next.value;
  }
}

/** After a stall at byte `at`: the bytes from there on, reopened ({@link resumed}); without `reopen`, {@link StalledError}. */
function afterStall(resume: StallResume, at: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (!resume.reopen) throw new StalledError(at, resume.stallMs);
  return resumed(resume as Required<StallResume>, at, signal);
}

/** The bytes from byte `at` on, read again after a stall there: reopened from each later stall too, up to {@link MAX_STALLS}. */
async function* resumed(resume: Required<StallResume>, at: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  for (let stalls = 1; ; stalls++) {
    if (stalls > MAX_STALLS) throw new Error(`the file stopped giving bytes at byte ${at}: its read stalled ${stalls} times, for ${resume.stallMs / 1000} s each`);
    console.warn(`a read stalled at byte ${at}: reading on from there with another reader`);
    const chunks = streamChunks(resume.reopen(at), signal, resume.stallMs, resume.waits);
    for (;;) {
      const next = await chunks.next();
      if (next.done) {
        if (next.value === 'ended') return;
        break; // stalled: reopened from `at`
      }
      at += next.value.length;
      yield next.value;
    }
  }
}

/**
 * The chunks of `stream` as they come (default reader), the stream cancelled when left before
 * its end. With `stallMs`, it stops when a read takes longer. Each read's wait is noted in
 * `waits`. Returns how it stopped.
 */
export async function* streamChunks(stream: ReadableStream<Uint8Array>, signal?: AbortSignal, stallMs?: number, waits?: Waits): AsyncGenerator<Uint8Array, 'ended' | 'stalled'> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const deadline = stallDeadline(stallMs, waits);
      const result = await deadline.race(reader.read()).finally(deadline.clear);
      if (result === STALLED) return 'stalled';
      ended = result.done;
      if (result.done) return 'ended';
      yield result.value;
    }
  } finally {
    if (ended) reader.releaseLock();
    else void reader.cancel().catch(() => {});
  }
}

/**
 * The first `length` bytes of `stream` (fewer when it ends first), its reader released after, so
 * the stream can be read on from there. A byte stream is read with a BYOB reader, which takes
 * no byte more; from another stream, `extra` holds what its last chunk brought past `length`.
 */
export async function readFirst(stream: ReadableStream<Uint8Array>, length: number, signal?: AbortSignal): Promise<{ bytes: Uint8Array; extra: Uint8Array | null }> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // not a byte stream: read below
  }
  if (byob) {
    try {
      const { view, filled } = await fillFrom(byob, new Uint8Array(length), signal);
      return { bytes: view.subarray(0, filled), extra: null };
    } finally {
      byob.releaseLock();
    }
  }
  const reader = stream.getReader();
  const bytes = new Uint8Array(length);
  let filled = 0;
  try {
    while (filled < length) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      const taken = Math.min(value.length, length - filled);
      bytes.set(value.subarray(0, taken), filled);
      filled += taken;
      if (taken < value.length) return { bytes, extra: value.subarray(taken) };
    }
    return { bytes: bytes.subarray(0, filled), extra: null };
  } finally {
    reader.releaseLock();
  }
}

/** What {@link fillFrom} gives when its time ran out before `into` was full. */
const STALLED = Symbol('stalled');

/**
 * A deadline `ms` from now (none when undefined): `race(read)` gives the read's result, or
 * {@link STALLED} once the deadline has passed (the read then settles, if ever, as its reader
 * is cancelled); `clear` stops the timer. Each race's wait is noted in `waits`.
 */
function stallDeadline(ms: number | undefined, waits?: Waits): { race: <T>(read: Promise<T>) => Promise<T | typeof STALLED>; clear: () => void } {
  if (ms === undefined) return { race: (read) => read, clear: () => {} };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<typeof STALLED>((resolve) => (timer = setTimeout(() => resolve(STALLED), ms)));
  return {
    race: async (read) => {
      const waited = waits?.begin();
      const result = await Promise.race([read, passed]).finally(waited);
      if (result === STALLED) read.catch(() => {});
      return result;
    },
    clear: () => clearTimeout(timer),
  };
}

/** The bytes {@link fillFrom} read: the first `filled` of `view`. */
type Filled = { view: Uint8Array<ArrayBuffer>; filled: number };

/**
 * Reads from a byte stream into `into` until it is full or the stream ends. BYOB reads move the
 * buffer on each read, so the filled bytes come back as `view`, on the buffer that now holds them.
 * With `stallMs`, gives {@link STALLED} when the whole fill takes longer (the pending read keeps
 * the buffer).
 */
async function fillFrom(reader: ReadableStreamBYOBReader, into: Uint8Array<ArrayBuffer>, signal?: AbortSignal): Promise<Filled>;
async function fillFrom(reader: ReadableStreamBYOBReader, into: Uint8Array<ArrayBuffer>, signal: AbortSignal | undefined, stallMs: number | undefined, perRead?: boolean, waits?: Waits): Promise<Filled | typeof STALLED>;
async function fillFrom(reader: ReadableStreamBYOBReader, into: Uint8Array<ArrayBuffer>, signal?: AbortSignal, stallMs?: number, perRead = false, waits?: Waits): Promise<Filled | typeof STALLED> {
  let view = into;
  let filled = 0;
  const length = into.length; // `into` itself reads as empty once its buffer has moved
  // One deadline a piece (16 reads fill a piece), raced by each read; or one a read.
  let deadline = stallDeadline(stallMs, waits);
  try {
    while (filled < length) {
      if (signal?.aborted) throw signal.reason;
      const read = reader.read<Uint8Array<ArrayBuffer>>(view.subarray(filled));
      if (perRead && filled > 0) {
        deadline.clear();
        deadline = stallDeadline(stallMs, waits);
      }
      const result = await deadline.race(read);
      if (result === STALLED) return STALLED;
      const { done, value } = result;
      if (value) {
        view = new Uint8Array(value.buffer, value.byteOffset - filled, length);
        filled += value.length;
      }
      if (done) break;
    }
  } finally {
    deadline.clear();
  }
  return { view, filled };
}

/** Counters of an HTTP source's requests, for the progress line. */
export interface FetchStats {
  bytesFetched: number;
  requestsInFlight: number;
  retries: number;
  /** False once the server answered a Range request with the whole file (200). */
  rangeSupported: boolean;
  /** Requests waiting for their reply's headers, and bodies for their next bytes. */
  waits: Waits;
}
