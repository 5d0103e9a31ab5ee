/** The framer on fake sources (real files cut into odd chunks, streams, broken frames, targeted reads) and on a local File. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PbfFormatError, readFrames, readFramesAt, type Frame } from './framer';
import { FileSource, type Source } from '../source/source';
import { BufferPool } from './buffers';
import { DATA_DIR } from '../../tests/e2e/data';
import { loadWasm } from '../../tests/wasm-node';

beforeAll(loadWasm);

/** A source over bytes in memory; `stream` makes it a front-to-back one, in pieces of `piece` bytes. */
function memorySource(bytes: Uint8Array, opts: { stream?: boolean; piece?: number } = {}): Source & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  const src = {
    name: 'memory.osm.pbf',
    size: bytes.length,
    seekable: !opts.stream,
    reads,
    async open() {},
    async read(offset: number, length: number) {
      reads.push([offset, length]);
      return bytes.slice(offset, offset + length);
    },
    stream: opts.stream
      ? async function* () {
          for (let at = 0; at < bytes.length; at += opts.piece ?? 1000) yield bytes.slice(at, at + (opts.piece ?? 1000));
        }
      : undefined,
  };
  return src;
}

async function all(frames: AsyncIterable<Frame>): Promise<Frame[]> {
  const out: Frame[] = [];
  for await (const f of frames) out.push(f);
  return out;
}

const malta = new Uint8Array(readFileSync(join(DATA_DIR, 'malta.osm.pbf')));

describe('readFrames', () => {
  it('finds the same frames whatever the chunk size, and they tile the file exactly', async () => {
    const reference = await all(readFrames(memorySource(malta), { chunkSize: 4 << 20 }));
    expect(reference[0].type).toBe('OSMHeader');
    expect(reference.length).toBeGreaterThan(10);
    let at = 0;
    for (const f of reference) {
      expect(f.offset).toBe(at);
      at += f.size;
    }
    expect(at).toBe(malta.length);
    for (const chunkSize of [7, 1000, 65_537]) {
      const frames = await all(readFrames(memorySource(malta), { chunkSize, readAhead: 3 }));
      expect(frames.map((f) => [f.offset, f.size, f.blob.byteLength])).toEqual(reference.map((f) => [f.offset, f.size, f.blob.byteLength]));
    }
    const streamed = await all(readFrames(memorySource(malta, { stream: true, piece: 3333 })));
    expect(streamed.map((f) => f.offset)).toEqual(reference.map((f) => f.offset));
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
    const got = await source.read(123_456, 789_012);
    expect(Buffer.from(got).equals(Buffer.from(malta.subarray(123_456, 123_456 + 789_012)))).toBe(true);
    expect((await source.read(malta.length - 10, 100)).length).toBe(10);
  });
});
