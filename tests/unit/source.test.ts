/**
 * `readFirst` (`workers/source/source.ts`), which reads the HTTP probe's first bytes and leaves
 * its reply to be read on by a full read: from a byte stream it takes no byte more; from any
 * other stream it hands back what the last chunk brought past the length.
 */
import { describe, expect, it } from 'vitest';
import { readFirst } from '../../workers/source/source';

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
