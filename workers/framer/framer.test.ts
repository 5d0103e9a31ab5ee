/** The framer on fake sources (real files cut into odd chunks, streams, broken frames, targeted reads) and on a local File. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PbfFormatError, readFrames, readFramesAt, type Frame } from './framer';
import { FileSource, readBytes, STREAM_ABOVE, type Source } from '../source/source';
import { BufferPool } from './buffers';
import { DATA_DIR } from '../../tests/e2e/data';
import { loadWasm } from '../../tests/wasm-node';

beforeAll(loadWasm);

/** A source over bytes in memory, each read given in pieces of `piece` bytes (default: one piece). */
function memorySource(bytes: Uint8Array, opts: { piece?: number } = {}): Source & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    name: 'memory.osm.pbf',
    size: bytes.length,
    reads,
    async open() {},
    async *read(offset: number, length: number) {
      reads.push([offset, length]);
      const end = Math.min(bytes.length, offset + length);
      const piece = opts.piece ?? end - offset;
      for (let at = offset; at < end; at += piece) yield bytes.slice(at, Math.min(end, at + piece));
    },
  };
}

async function all(frames: AsyncIterable<Frame>): Promise<Frame[]> {
  const out: Frame[] = [];
  for await (const f of frames) out.push(f);
  return out;
}

const malta = new Uint8Array(readFileSync(join(DATA_DIR, 'malta.osm.pbf')));

describe('readFrames', () => {
  it('finds the same frames whatever the size of the pieces the source gives, and they tile the file exactly', async () => {
    const reference = await all(readFrames(memorySource(malta)));
    expect(reference[0].type).toBe('OSMHeader');
    expect(reference.length).toBeGreaterThan(10);
    let at = 0;
    for (const f of reference) {
      expect(f.offset).toBe(at);
      at += f.size;
    }
    expect(at).toBe(malta.length);
    for (const piece of [7, 1000, 3333, 65_537]) {
      const frames = await all(readFrames(memorySource(malta, { piece })));
      expect(frames.map((f) => [f.offset, f.size, f.blob.byteLength])).toEqual(reference.map((f) => [f.offset, f.size, f.blob.byteLength]));
    }
  });

  it('names a truncated file with the byte offset and blob index', async () => {
    const cut = malta.slice(0, 2_000_000);
    await expect(all(readFrames(memorySource(cut)))).rejects.toThrow(/file truncated inside the OSMData Blob: needs \d+ bytes, only \d+ remain \(at byte \d+, blob #\d+\)/);
  });

  it('recognises a file that is not a PBF', async () => {
    const xml = new TextEncoder().encode('<?xml version="1.0"?><osm version="0.6"></osm>');
    await expect(all(readFrames(memorySource(xml)))).rejects.toThrow(PbfFormatError);
    await expect(all(readFrames(memorySource(xml)))).rejects.toThrow(/this is OSM XML/);
    await expect(all(readFrames(memorySource(new Uint8Array(0))))).rejects.toThrow(/the file is empty/);
  });
});

describe('readFramesAt', () => {
  it('reads only the wanted frames, neighbours together', async () => {
    const frames = await all(readFrames(memorySource(malta)));
    const wanted = [frames[2], frames[3], frames[frames.length - 1]].map(({ index, offset, size }) => ({ index, offset, size }));
    const src = memorySource(malta);
    const got = await all(readFramesAt(src, wanted));
    expect(got.map((f) => f.index)).toEqual(wanted.map((f) => f.index));
    expect(got.map((f) => f.blob.byteLength)).toEqual([2, 3, frames.length - 1].map((i) => frames[i].blob.byteLength));
    expect(src.reads.length).toBeLessThanOrEqual(2); // frames 2 and 3 in one read
    const bytesRead = src.reads.reduce((n, [, len]) => n + len, 0);
    expect(bytesRead).toBeLessThan(malta.length / 2);
  });

  it('notices a file that changed since the first read', async () => {
    const frames = await all(readFrames(memorySource(malta)));
    const moved = { index: frames[3].index, offset: frames[3].offset + 1, size: frames[3].size };
    await expect(all(readFramesAt(memorySource(malta), [moved]))).rejects.toThrow(/changed since it was first read|corrupt BlobHeader|exceeds/);
  });
});

describe('FileSource', () => {
  it('streams a local file byte for byte, and the framer hands each consumed piece back for reuse', async () => {
    const buffers = new BufferPool();
    const handedBack: number[] = [];
    const put = buffers.put.bind(buffers);
    buffers.put = (buffer) => {
      handedBack.push(buffer.byteLength);
      put(buffer);
    };
    const frames = await all(readFrames(new FileSource(new File([malta], 'malta.osm.pbf')), { buffers }));
    const reference = await all(readFrames(memorySource(malta)));
    expect(frames.map((f) => [f.offset, f.size])).toEqual(reference.map((f) => [f.offset, f.size]));
    frames.forEach((f, i) => expect(Buffer.from(f.blob).equals(Buffer.from(reference[i].blob))).toBe(true));
    // Every 1 MiB piece but the ones still queued at the end comes back.
    expect(handedBack.filter((n) => n >= 1 << 20).length).toBeGreaterThanOrEqual(Math.floor(malta.length / (1 << 20)) - 1);
  });

  it('reads a range exactly, and what remains of one past the end', async () => {
    const source = new FileSource(new File([malta], 'malta.osm.pbf'));
    const got = await readBytes(source, 123_456, 789_012);
    expect(Buffer.from(got).equals(Buffer.from(malta.subarray(123_456, 123_456 + 789_012)))).toBe(true);
    expect((await readBytes(source, malta.length - 10, 100)).length).toBe(10);
    // A range longer than STREAM_ABOVE comes streamed, in pieces, the same bytes.
    const big = new Uint8Array(STREAM_ABOVE + 12_345).map((_, i) => i * 7);
    const long = new FileSource(new File([big], 'big.bin'));
    let pieces = 0;
    const out: number[] = [];
    for await (const p of long.read(5, big.length)) (pieces++, out.push(p.length));
    expect(pieces).toBeGreaterThan(1);
    expect(out.reduce((a, b) => a + b, 0)).toBe(big.length - 5);
    expect(Buffer.from(await readBytes(long, 5, big.length)).equals(Buffer.from(big.subarray(5)))).toBe(true);
  });
});
