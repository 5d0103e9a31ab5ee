/**
 * The HTTP source (`workers/source/http-source.ts`) against the fault server, in Node: the probe
 * brings the file's first and last MiB (what the file identity hashes) in its one round trip, a
 * full read goes on with the probe's reply, and hands on exactly the file's bytes, through
 * faults too.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { END_BYTES, FetchSource, PROBE_BYTES } from '../../workers/source/http-source';
import { readBytes } from '../../workers/source/source';
import { DATA_DIR } from '../e2e/data';
// @ts-expect-error: a plain ES module shared with the benchmark
import { startFaultServer } from '../fault-server.mjs';

const FILE = 'malta.osm.pbf';
const bytes = readFileSync(join(DATA_DIR, FILE));
/** A file larger than the probe's bytes. */
const BIG = 'malta-x20-synthetic.osm.pbf';
const bigBytes = () => readFileSync(join(DATA_DIR, BIG));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let server: { origin: string; close: () => Promise<void> };

beforeAll(async () => {
  server = await startFaultServer(DATA_DIR, { latencyMs: 5 });
});
afterAll(async () => server.close());

/** A source for `file` behind fault `mode`, and what the server has sent for it so far. */
function source(mode: string, file = FILE) {
  const token = randomUUID();
  const fetched = new FetchSource(`${server.origin}/${token}/${mode}/${file}`, { retries: 3, backoffMs: 10 });
  const sent = async (): Promise<{ requests: number; bytes: number }> => (await fetch(`${server.origin}/${token}/bytes`)).json();
  return { fetched, sent };
}

async function streamed(s: FetchSource): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const piece of s.read(0, s.size)) pieces.push(piece.slice());
  return Buffer.concat(pieces);
}

/** A source behind fault `mode` whose replies count as stalled after 300 ms of silence. */
function stalling(mode: string, file = BIG) {
  const token = randomUUID();
  return new FetchSource(`${server.origin}/${token}/${mode}/${file}`, { retries: 2, backoffMs: 10, stallMs: 300 });
}

describe('FetchSource, when a server stops sending', () => {
  it('a stream that stalls mid-body, the connection open, is asked for again from the byte it stopped at', async () => {
    const s = stalling('stall-stream-once');
    await s.open();
    expect(sha(await streamed(s))).toBe(sha(bigBytes()));
    expect(s.stats.retries).toBe(1);
  });

  it('a request never answered is sent again', async () => {
    const s = stalling('silent-once');
    await s.open();
    expect(sha(await streamed(s))).toBe(sha(bigBytes()));
    expect(s.stats.retries).toBeGreaterThanOrEqual(1);
  });

  it('a server that stalls every time ends the read with an error naming it and the byte', async () => {
    const s = stalling('stall-always');
    await s.open();
    await expect(streamed(s)).rejects.toThrow(/\/stall-always\/malta-x20-synthetic\.osm\.pbf sent no byte for 0\.3 s at byte \d+ \(gave up on bytes \d+-\d+ after 3 tries\)/);
  });
});

describe('FetchSource', () => {
  it('the probe brings both ends: reading them after open sends nothing more', async () => {
    const { fetched, sent } = source('latency');
    await fetched.open();
    expect(fetched.size).toBe(bytes.length);
    const head = await readBytes(fetched, 0, END_BYTES);
    const tail = await readBytes(fetched, bytes.length - END_BYTES, END_BYTES);
    fetched.release();
    expect(sha(head)).toBe(sha(bytes.subarray(0, END_BYTES)));
    expect(sha(tail)).toBe(sha(bytes.subarray(bytes.length - END_BYTES)));
    expect((await sent()).requests).toBe(2);
  });

  it('the probe brings only the ends; a full read asks for the rest once: every byte sent once, the tail aside', async () => {
    const { fetched, sent } = source('clean');
    await fetched.open();
    expect(sha(await streamed(fetched))).toBe(sha(bytes));
    expect(await sent()).toEqual({ requests: 3, bytes: bytes.length + END_BYTES });
  });

  it('a full read of a larger file asks for the rest once, before the probe bytes are taken', async () => {
    const { fetched, sent } = source('latency', BIG);
    await fetched.open();
    expect(fetched.size).toBeGreaterThan(PROBE_BYTES);
    const reader = fetched.read(0, fetched.size)[Symbol.asyncIterator]();
    const pieces = [(await reader.next()).value.slice()]; // the head
    await new Promise((r) => setTimeout(r, 50));
    expect((await sent()).requests, 'asked for with the head handed on').toBe(3);
    for (let p = await reader.next(); !p.done; p = await reader.next()) pieces.push(p.value.slice());
    expect(sha(Buffer.concat(pieces))).toBe(sha(bigBytes()));
    expect(await sent()).toEqual({ requests: 3, bytes: fetched.size + END_BYTES });
  });

  it('a server that sends part of an open-ended range is asked for the rest, with no retry', async () => {
    const { fetched, sent } = source('capped', BIG);
    await fetched.open();
    expect(sha(await streamed(fetched))).toBe(sha(bigBytes()));
    expect(fetched.stats.retries).toBe(0);
    expect((await sent()).requests).toBeGreaterThan(3);
  });

  for (const mode of ['503-once', 'cut-once', 'cut-stream-once', 'no-range', 'range-only']) {
    it(`a full read gives the file's bytes (${mode})`, async () => {
      const { fetched } = source(mode);
      await fetched.open();
      expect(sha(await readBytes(fetched, bytes.length - 100, 100))).toBe(sha(bytes.subarray(bytes.length - 100)));
      expect(sha(await streamed(fetched))).toBe(sha(bytes));
      // Ranges at growing offsets, as a targeted read asks for them (forward in one reply without Range support).
      const ranges = [[100, 5000], [200_000, 70_000], [bytes.length - 300, 300]];
      for (const [at, n] of ranges) expect(sha(await readBytes(fetched, at, n)), `bytes ${at}+${n}`).toBe(sha(bytes.subarray(at, at + n)));
    });
  }
});
