/**
 * Finds the frames of a PBF file as its bytes arrive (spec "File format"): a 4-byte
 * big-endian BlobHeader length, the BlobHeader, then `datasize` bytes of Blob. Reads the
 * {@link Source} front to back, and never holds more than the frame being cut plus the pieces
 * it spans; or reads the frames a read plan lists, neighbours together. Runs in the query worker, which has loaded the Wasm decoder:
 * BlobHeaders are decoded by the same Rust code as everywhere else (`readBlobHeader`).
 */
import { readBlobHeader } from '../../wasm/pkg/pbf_explorer.js';
import { BufferPool } from './buffers';
import { describeNonPbf } from './sniff';
import { readBytes, type Source } from '../source/source';

/** The spec's hard cap on a BlobHeader, in bytes (the Blob's 32 MiB cap is checked in Rust). */
export const MAX_BLOB_HEADER_SIZE = 64 * 1024;

/** One frame: a Blob cut out of the file, in its own transferable buffer. */
export interface Frame {
  /** 0 for the first frame (the OSMHeader), then 1, 2, … */
  index: number;
  /** Byte offset of the frame's length prefix in the file. */
  offset: number;
  /** Length of the whole frame in bytes (prefix, BlobHeader and Blob). */
  size: number;
  /** `BlobHeader.type`: `OSMHeader`, `OSMData`, or an unknown type (skipped downstream). */
  type: string;
  /** The encoded Blob message: a view of exactly its bytes (on a buffer that may be larger). */
  blob: Uint8Array;
}

/** A malformed file, with where the problem is. */
export class PbfFormatError extends Error {
  constructor(message: string, readonly offset: number, readonly blobIndex: number) {
    super(`${message} (at byte ${offset}, blob #${blobIndex})`);
  }
}

export interface FramerOptions {
  /** Most bytes per read of neighbouring frames ({@link readFramesAt}); default {@link TARGETED_READ}'s. */
  chunkSize?: number;
  /** Reads of {@link readFramesAt} kept in flight; default {@link TARGETED_READ}'s. */
  readAhead?: number;
  signal?: AbortSignal;
  /** Called with the total bytes read so far after each chunk arrives. */
  onRead?: (bytesRead: number) => void;
  /** Where Blob buffers come from (default: new ones). */
  buffers?: BufferPool;
}

/**
 * The targeted reads' requests: neighbouring frames read together up to 4 MiB a read, 6 reads
 * in flight, for every source. Measured over HTTP on the 110 MB file with 50 ms added to every
 * request, 2 workers: 1 MiB × 8 took 2.8 s, 2 MiB × 8 2.1 s, 4 MiB × 6 2.0–2.1 s, 4 MiB × 10,
 * 8 MiB × 6 and 16 MiB × 4 the same within noise; smaller reads pay the latency. A local file's
 * indexed reads take the same within noise (`docs/decisions.md`).
 */
export const TARGETED_READ = { chunkSize: 4 << 20, readAhead: 6 };

/** The file front to back, as the source's pieces come, counting the bytes read. */
class ChunkReader {
  private bytesRead = 0;
  private pieces: AsyncIterator<Uint8Array>;

  constructor(source: Source, private opts: FramerOptions & { buffers: BufferPool }) {
    const length = Number.isFinite(source.size) ? source.size : Infinity;
    this.pieces = source.read(0, length, { signal: opts.signal, buffers: opts.buffers })[Symbol.asyncIterator]();
  }

  /** The next piece in file order, or null at the end of the file. */
  async nextChunk(): Promise<Uint8Array | null> {
    const { done, value } = await this.pieces.next();
    if (done) return null;
    this.bytesRead += value.length;
    this.opts.onRead?.(this.bytesRead);
    return value;
  }

  /** Stops the source's read (a reader that left before the end). */
  stop(): void {
    void this.pieces.return?.();
  }
}

/** Decodes a BlobHeader with the Rust decoder. @throws PbfFormatError when it is corrupt or over a cap. */
function blobHeader(bytes: Uint8Array, offset: number, index: number): { type: string; datasize: number } {
  try {
    const { type, datasize } = JSON.parse(readBlobHeader(bytes, offset));
    return { type, datasize };
  } catch (e) {
    const message = (e as Error).message.replace(/ \(frame at byte \d+\)$/, '');
    throw new PbfFormatError(/exceeds/.test(message) ? `${message}: corrupt file` : `corrupt BlobHeader: ${message}`, offset, index);
  }
}

/** A frame the second, targeted read wants: where it is (bytes) and its index in the file. */
export interface FrameAt {
  index: number;
  offset: number;
  size: number;
}

/** Frames closer than this are read in one request (a gap is cheaper than a round trip). */
const COALESCE_GAP = 256 << 10;

/**
 * Reads the frames `wanted` (ascending offsets) and yields them in that order: neighbouring
 * frames are read together, in reads of at most `chunkSize` bytes, `readAhead` at a time.
 * @throws PbfFormatError when a frame is not where the first read saw it (the file changed).
 */
export async function* readFramesAt(source: Source, wanted: FrameAt[], options: FramerOptions = {}): AsyncGenerator<Frame> {
  const { chunkSize = TARGETED_READ.chunkSize, readAhead = TARGETED_READ.readAhead, signal, buffers = new BufferPool() } = options;
  const groups: FrameAt[][] = [];
  for (const f of wanted) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (last && f.offset - (last.offset + last.size) <= COALESCE_GAP && f.offset + f.size - group[0].offset <= chunkSize) group.push(f);
    else groups.push([f]);
  }
  const read = (group: FrameAt[]) => {
    const start = group[0].offset;
    const end = group[group.length - 1].offset + group[group.length - 1].size;
    const reading = readBytes(source, start, end - start, signal).then((b) => {
      // Frames are found by position: a short read would shift every byte after it.
      if (b.length !== end - start) throw new PbfFormatError(`the file ended after ${b.length} of the ${end - start} bytes read here`, start, group[0].index);
      return { group, start, b };
    });
    reading.catch(() => {}); // awaited in turn below; reads still in flight when the reader stops are not
    return reading;
  };
  const inflight = groups.slice(0, readAhead).map(read);
  for (let next = readAhead; inflight.length > 0; next++) {
    const { group, start, b } = await inflight.shift()!;
    if (next < groups.length) inflight.push(read(groups[next]));
    for (const f of group) {
      const at = f.offset - start;
      const headerLength = at + 4 <= b.length ? new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0, false) : -1;
      if (headerLength < 0 || at + 4 + headerLength > b.length) throw new PbfFormatError('the file changed since it was first read: no frame here any more', f.offset, f.index);
      const { type, datasize } = blobHeader(b.subarray(at + 4, at + 4 + headerLength), f.offset, f.index);
      const blobStart = at + 4 + headerLength;
      if (4 + headerLength + datasize !== f.size) throw new PbfFormatError('the file changed since it was first read: the frame has another size', f.offset, f.index);
      const blob = buffers.get(datasize);
      blob.set(b.subarray(blobStart, blobStart + datasize));
      yield { index: f.index, offset: f.offset, size: f.size, type, blob };
    }
  }
}

/**
 * Yields the frames of `source` in file order.
 * @throws PbfFormatError for an empty file, a non-PBF file (named when recognised), a
 *   BlobHeader over 64 KiB, a datasize over 32 MiB, a corrupt BlobHeader, a file that does not
 *   start with an OSMHeader, or a file truncated inside a frame; the source's own errors pass through.
 */
export async function* readFrames(source: Source, options: FramerOptions = {}): AsyncGenerator<Frame> {
  const buffers = options.buffers ?? new BufferPool();
  if (source.size === 0) throw new PbfFormatError('the file is empty', 0, 0);
  const reader = new ChunkReader(source, { ...options, buffers });
  try {
    yield* framesOf(new ByteQueue(reader, buffers), source);
  } finally {
    reader.stop(); // left before the end: the source's read stops too
  }
}

/** The frames in `bytes`, the bytes of `source` from its start (see {@link readFrames}). */
async function* framesOf(bytes: ByteQueue, source: Source): AsyncGenerator<Frame> {
  const sniffLength = Number.isFinite(source.size) ? Math.min(512, source.size) : 512;
  for (let index = 0; ; index++) {
    if (!(await bytes.fill(1))) return;
    const offset = bytes.offset;
    const fail = (message: string): never => {
      throw new PbfFormatError(message, offset, index);
    };
    const need = async (n: number, what: string) => {
      if (!(await bytes.fill(n))) fail(`file truncated inside ${what}: needs ${n} bytes, only ${bytes.available} remain`);
    };
    if (index === 0) {
      await bytes.fill(sniffLength);
      const kind = describeNonPbf(bytes.peek(Math.min(512, bytes.available)));
      if (kind) fail(`not a PBF file: ${kind}`);
    }
    await need(4, 'a frame length');
    const prefix = bytes.peek(4);
    const headerLength = new DataView(prefix.buffer, prefix.byteOffset, 4).getUint32(0, false);
    if (headerLength > MAX_BLOB_HEADER_SIZE) {
      fail(`BlobHeader length ${headerLength} exceeds the spec's 64 KiB cap: ${index === 0 ? 'not a PBF file' : 'corrupt file'}`);
    }
    await need(4 + headerLength, 'a BlobHeader');
    const { type, datasize } = blobHeader(bytes.peek(4 + headerLength).subarray(4), offset, index);
    if (index === 0 && type !== 'OSMHeader') fail(`the file does not start with an OSMHeader (first BlobHeader type is "${type}")`);
    await need(4 + headerLength + datasize, `the ${type} Blob`);
    bytes.skip(4 + headerLength);
    const blob = bytes.take(datasize);
    yield { index, offset, size: 4 + headerLength + datasize, type, blob };
  }
}

/**
 * The unread bytes of a file as the chunks it arrived in. Each Blob is copied once, straight
 * from the chunks into its own buffer (which goes to a decode worker); a streamed piece goes back
 * to the buffer pool as soon as it is consumed (each has its buffer to itself: see
 * `Source.read`), so the next piece or Blob reuses it. (Merging chunks first made twice the garbage.)
 */
class ByteQueue {
  private chunks: Uint8Array[] = [];
  /** Read position in chunks[0]. */
  private pos = 0;
  available = 0;
  /** File offset of the next unread byte. */
  offset = 0;

  constructor(private reader: ChunkReader, private buffers: BufferPool) {}

  /** Reads until at least `n` bytes are available; false when the file ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.available < n) {
      const chunk = await this.reader.nextChunk();
      if (!chunk) return false;
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.available += chunk.length;
    }
    return true;
  }

  /** The next `n` bytes (available), without consuming them: a view when they lie in one chunk. */
  peek(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length - this.pos >= n) return first.subarray(this.pos, this.pos + n);
    return this.copy(n, false);
  }

  /** Consumes `n` available bytes. */
  skip(n: number): void {
    this.copy(n, true, null);
  }

  /** Consumes the next `n` available bytes into a buffer of their own. */
  take(n: number): Uint8Array {
    return this.copy(n, true, this.buffers.get(n));
  }

  private copy(n: number, consume: boolean, into: Uint8Array | null = new Uint8Array(n)): Uint8Array {
    let at = 0;
    let chunk = 0;
    let pos = this.pos;
    while (at < n) {
      const c = this.chunks[chunk];
      const len = Math.min(c.length - pos, n - at);
      into?.set(c.subarray(pos, pos + len), at);
      at += len;
      pos += len;
      if (pos === c.length) {
        chunk++;
        pos = 0;
      }
    }
    if (consume) {
      // Views of consumed chunks (peek's) do not outlive the synchronous code that asked for them.
      const consumed = this.chunks.splice(0, chunk);
      for (const c of consumed) this.buffers.put(c.buffer as ArrayBuffer);
      this.pos = pos;
      this.available -= n;
      this.offset += n;
    }
    return into ?? new Uint8Array(0);
  }
}
