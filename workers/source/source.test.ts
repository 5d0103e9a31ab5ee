/**
 * `readFirst` (`workers/source/source.ts`), which reads the HTTP probe's first bytes and leaves
 * its reply to be read on by a full read: from a byte stream it takes no byte more; from any
 * other stream it hands back what the last chunk brought past the length. And `streamPieces`,
 * which reads a local file front to back: a read that never settles (as Chromium's BYOB reads
 * of `File.stream()` were seen to) is taken up again from the stalled piece's start, a reopened
 * read that stalls from the byte it stopped at, and too many stalls fail the read.
 */
import { describe, expect, it } from 'vitest';
import { MAX_STALLS, readFirst, streamPieces } from './source';

const BYTES = Uint8Array.from({ length: 12 }, (_, i) => i);
/** `BYTES` in chunks of 3, 4 and 5 bytes: a default stream, or a byte stream (BYOB reads). */
function chunked(bytes: boolean): ReadableStream<Uint8Array> {
  const chunks = [BYTES.slice(0, 3), BYTES.slice(3, 7), BYTES.slice(7)];
  const pull = (c: ReadableByteStreamController) => {
    if (chunks.length) return c.enqueue(chunks.shift()!);
    c.close();
    c.byobRequest?.respond(0); // a read waiting at the end is answered, as a fetch body's is
  };
  return new ReadableStream({ type: bytes ? 'bytes' : undefined, pull } as unknown as UnderlyingDefaultSource<Uint8Array>);
}

async function rest(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.push(...chunk);
  return out;
}

describe('readFirst', () => {
  for (const bytes of [false, true]) {
    it(`takes the first bytes and leaves the stream readable after them (${bytes ? 'byte' : 'default'} stream)`, async () => {
      const stream = chunked(bytes);
      const { bytes: first, extra } = await readFirst(stream, 5);
      expect([...first]).toEqual([0, 1, 2, 3, 4]);
      expect([...(extra ?? []), ...(await rest(stream))]).toEqual([5, 6, 7, 8, 9, 10, 11]);
      if (bytes) expect(extra).toBeNull();
    });

    it(`gives fewer bytes when the stream ends first (${bytes ? 'byte' : 'default'} stream)`, async () => {
      const { bytes: first, extra } = await readFirst(chunked(bytes), 20);
      expect([...first]).toEqual([...BYTES]);
      expect(extra).toBeNull();
    });
  }
});

/**
 * A byte stream of `data` from byte `from`, in reads of at most 64 KiB (BYOB, or chunks of a
 * default reader), whose read at byte `stallAt` never settles.
 */
function stallingAt(data: Uint8Array, stallAt: number, from = 0): ReadableStream<Uint8Array> {
  let at = from;
  const pull = (c: ReadableByteStreamController) => {
    const request = c.byobRequest!;
    if (at >= stallAt) return new Promise<void>(() => {});
    if (at >= data.length) {
      c.close();
      request.respond(0);
      return;
    }
    const view = request.view!;
    const n = Math.min(view.byteLength, 64 << 10, stallAt - at, data.length - at);
    new Uint8Array(view.buffer, view.byteOffset, n).set(data.subarray(at, at + n));
    at += n;
    request.respond(n);
  };
  return new ReadableStream({ type: 'bytes', pull, autoAllocateChunkSize: 64 << 10 } as unknown as UnderlyingDefaultSource<Uint8Array>);
}

/** The pieces joined, each copied as it comes (a piece's buffer may be used again after). */
async function concat(pieces: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const piece of pieces) parts.push(piece.slice());
  return Buffer.concat(parts);
}

describe('streamPieces', () => {
  const MIB = 1 << 20;
  const data = Uint8Array.from({ length: 3.5 * MIB }, (_, i) => (i * 2654435761) >>> 24);

  it('reads on from the start of a piece whose read stalls, with another reader', async () => {
    const reopened: number[] = [];
    const reopen = (offset: number) => (reopened.push(offset), new Blob([data.subarray(offset)]).stream());
    const read = await concat(streamPieces(stallingAt(data, 2.5 * MIB + 100), undefined, undefined, { reopen, stallMs: 50 }));
    expect(reopened).toEqual([2 * MIB]);
    expect(read.length).toBe(data.length);
    expect(read.equals(data)).toBe(true);
  });

  it('reopens a read that stalls again from the byte it stopped at', async () => {
    const reopened: number[] = [];
    // The first reopened read stalls 100 bytes into the last MiB; the next one does not.
    const reopen = (offset: number) => (reopened.push(offset), stallingAt(data, reopened.length === 1 ? 3 * MIB + 100 : Infinity, offset));
    const read = await concat(streamPieces(stallingAt(data, 2.5 * MIB + 100), undefined, undefined, { reopen, stallMs: 50 }));
    expect(reopened).toEqual([2 * MIB, 3 * MIB + 100]);
    expect(read.equals(data)).toBe(true);
  });

  it(`fails, naming the byte, when the read stalls a time more than ${MAX_STALLS}`, async () => {
    const reopened: number[] = [];
    const reopen = (offset: number) => (reopened.push(offset), stallingAt(data, offset + 1000, offset));
    const read = concat(streamPieces(stallingAt(data, 2.5 * MIB + 100), undefined, undefined, { reopen, stallMs: 50 }));
    await expect(read).rejects.toThrow(`the file stopped giving bytes at byte ${2 * MIB + MAX_STALLS * 1000}: its read stalled ${MAX_STALLS + 1} times`);
    expect(reopened).toEqual(Array.from({ length: MAX_STALLS }, (_, i) => 2 * MIB + i * 1000));
  });

  it('reopens nothing when no read stalls', async () => {
    const reopened: number[] = [];
    const reopen = (offset: number) => (reopened.push(offset), new Blob([data.subarray(offset)]).stream());
    const read = await concat(streamPieces(stallingAt(data, Infinity), undefined, undefined, { reopen, stallMs: 50 }));
    expect(reopened).toEqual([]);
    expect(read.equals(data)).toBe(true);
  });
});
